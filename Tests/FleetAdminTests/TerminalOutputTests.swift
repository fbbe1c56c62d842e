import FleetTestSupport
import Foundation
import Testing

/// fleet-admin on a real terminal (a pseudo-terminal from `script`): progress bars, bold headers,
/// tables fitted to the width; none of it when the output is a pipe.
@Suite struct TerminalOutputTests {
    /// Runs fleet-admin with its standard output and error on a pseudo-terminal of `columns` columns.
    private func onTerminal(_ fleet: AdminFleet, _ arguments: [String], columns: Int) throws -> String {
        let command = ([try BinaryRunner.locate("fleet-admin").path] + fleet.globalArguments + arguments)
            .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-q", "-e", "-c", command, "/dev/null"]
        process.environment = BinaryRunner.quietEnvironment.merging(["COLUMNS": String(columns), "TERM": "xterm"]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    }

    @Test func listsDrawAProgressBarAndFitTheTerminal() throws {
        let fleet = try AdminFleet(.memory)
        for index in 1...4 {
            try fleet.succeed(["vehicles", "create", "vehicle-with-a-rather-long-identifier-\(index)", "--capacity", "4",
                               "--location", "52.52,13.40"])
        }
        let screen = try onTerminal(fleet, ["vehicles", "list", "--page-size", "1"], columns: 60)
        #expect(screen.contains("\r\u{1B}[KListing vehicles ["), "a progress bar on standard error")
        #expect(screen.contains("]  3/4"))
        #expect(screen.contains("\u{1B}[1mID"), "a bold header")
        let rows = screen.components(separatedBy: "\r\u{1B}[K").last!.split(separator: "\n")
            .map { $0.replacingOccurrences(of: "\u{1B}[1m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: "") }
        #expect(rows.count == 5, "\(rows)")
        for row in rows { #expect(row.count <= 60, "'\(row)' is wider than the terminal") }
        #expect(rows[1].contains("…"), "long IDs are cut to fit")

        let plain = try onTerminal(fleet, ["--no-color", "vehicles", "list", "--page-size", "10"], columns: 200)
        #expect(!plain.contains("\u{1B}[1m"), "--no-color")
        #expect(!plain.contains("Listing vehicles"), "one page needs no progress")
    }

    @Test func pipesGetNoProgressAndNoColour() throws {
        let fleet = try AdminFleet(.memory)
        for index in 1...3 { try fleet.succeed(["vehicles", "create", "car-\(index)", "--capacity", "4"]) }
        let result = try fleet.run(["vehicles", "list", "--page-size", "1"],
                                   environment: BinaryRunner.quietEnvironment.merging(["COLUMNS": "20"]) { $1 })
        #expect(result.status == 0)
        #expect(result.error == "")
        #expect(!result.output.contains("\u{1B}"))
        #expect(result.output.split(separator: "\n").first == "ID     STATE    TYPE  CAPACITY  TRIPS  LOCATION  UPDATED", "natural width in a pipe")
    }
}
