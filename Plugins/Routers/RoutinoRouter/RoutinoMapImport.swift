import FleetErrors
import Foundation
import FleetRouting

/// Builds a Routino database from an OpenStreetMap extract by running Routino's `planetsplitter`,
/// the same way `make map` builds the Helsinki sample.
public enum RoutinoMapImport {
    /// What an import wrote.
    public struct Summary: Sendable, Hashable {
        /// The folder holding the database (`routino:` + this is the router URL).
        public var directory: String
        /// Bytes of the database files (nodes, segments, ways, relations).
        public var databaseBytes: Int
        /// Seconds planetsplitter ran.
        public var seconds: Double
    }

    /// The tagging rules Debian's `routino` installs: which OSM tags make which roads.
    public static let tagging = "/usr/share/routino/tagging.xml"

    /// Runs planetsplitter on `file` (.osm.pbf, .osm, .o5m, optionally compressed) into `directory`
    /// (created when missing; earlier files there are replaced), keeps its log as
    /// `planetsplitter.log` beside the database, and checks the result loads.
    ///
    /// Throws INVALID_ARGUMENT (`MAP_IMPORT_FAILED`, field `file`) for a file that is missing or that
    /// planetsplitter rejects, FAILED_PRECONDITION (`ROUTING_TOOLS_MISSING`) without planetsplitter.
    public static func run(file: String, into directory: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(FleetError) -> Summary {
        guard FileManager.default.isReadableFile(atPath: file) else {
            throw FleetError(.mapImportFailed, detail: "\(file) does not exist or cannot be read", field: "file")
        }
        guard let planetsplitter = executable(named: "planetsplitter", environment: environment) else {
            throw FleetError(.routingToolsMissing, detail: "planetsplitter is not on the PATH")
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw FleetError(.mapImportFailed, detail: "cannot create the folder \(directory): \(error.localizedDescription)", field: "into")
        }
        let logPath = directory + "/planetsplitter.log"
        guard FileManager.default.createFile(atPath: logPath, contents: nil), let log = FileHandle(forWritingAtPath: logPath) else {
            throw FleetError(.mapImportFailed, detail: "cannot write in \(directory)", field: "into")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: planetsplitter)
        process.arguments = ["--dir=" + directory, "--tagging=" + tagging, "--loggable", file]
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        let started = Date()
        do {
            try process.run()
        } catch {
            try? log.close()
            throw FleetError(.routingToolsMissing, detail: "cannot run \(planetsplitter): \(error.localizedDescription)")
        }
        process.waitUntilExit()
        try? log.close()
        let seconds = Date().timeIntervalSince(started)
        let files = ["nodes.mem", "segments.mem", "ways.mem", "relations.mem"]
        let sizes = files.map { (try? FileManager.default.attributesOfItem(atPath: directory + "/" + $0)[.size] as? Int) ?? nil }
        guard process.terminationReason == .exit, process.terminationStatus == 0, sizes.allSatisfy({ $0 != nil }) else {
            throw FleetError(.mapImportFailed, detail: "planetsplitter could not read \(file) (exit \(process.terminationStatus)); its last lines: \(lastLines(of: logPath))",
                             field: "file")
        }
        _ = try RoutinoRouter(directory: directory)
        return Summary(directory: directory, databaseBytes: sizes.reduce(0) { $0 + ($1 ?? 0) }, seconds: seconds)
    }

    /// The full path of a program on `PATH`, or nil.
    static func executable(named name: String, environment: [String: String]) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The last few non-empty lines of a log, joined, for an error message.
    static func lastLines(of path: String, count: Int = 3) -> String {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return lines.suffix(count).joined(separator: " / ")
    }
}
