import Foundation

/// `fleet-admin serve` (next to this binary) over a durable SQLite file in `folder`, on a free
/// loopback port, for the HTTP benchmarks.
final class BenchServer: Sendable {
    let process = Process()
    /// `http://127.0.0.1:PORT`.
    let url: String
    /// `127.0.0.1:PORT` of the gRPC listener, when started with `--grpc-listen`.
    let grpcTarget: String?

    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// A server over `store` (default: a new durable SQLite file in `folder`), listening on `listen`,
    /// started through `launcher` when given (a command that runs its arguments: `fleet-bench nodes`
    /// starts each node in a network namespace and CPU quota of its own).
    init(folder: String, store: String? = nil, extraArguments: [String] = [], environment: [String: String] = [:],
         listen: String = "127.0.0.1:0", launcher: String? = nil) throws {
        let admin = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("fleet-admin").path
        process.executableURL = URL(fileURLWithPath: launcher ?? admin)
        process.arguments = (launcher == nil ? [] : [admin]) + ["serve", "--listen", listen, "--store", store ?? "sqlite:\(folder)/serve-\(UUID().uuidString).db",
                             "--no-access-log",
                             // Every benchmark client is one address (loopback), opening up to 1,000 watches.
                             "--max-connections-per-client", "0", "--max-watches-per-client", "0"] + extraArguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let output = Pipe()
        process.standardOutput = output
        // What the server says on the way, kept to say why it did not start.
        let errors = "\(folder)/serve-\(UUID().uuidString).stderr"
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: errors) ?? FileHandle.nullDevice
        try process.run()
        let line = Self.readLine(output)
        guard let start = line.range(of: "http://") else {
            process.terminate()
            let said = ((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").suffix(1500)
            throw StartFailure(description: "it did not start" + (said.isEmpty ? "" : ": \(said)"))
        }
        url = String(line[start.lowerBound...].prefix { $0 != " " })
        grpcTarget = line.range(of: "grpc://").map { String(line[$0.upperBound...].prefix { $0 != " " }) }
    }

    /// The port of `url`.
    var port: UInt16 { UInt16(url.split(separator: ":").last.flatMap { Int($0) } ?? 0) }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }

    /// The first line the server prints (`listening on http://… [and grpc://…] (…)`).
    private static func readLine(_ pipe: Pipe) -> String {
        var line: [UInt8] = []
        while true {
            let byte = pipe.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte[0] == UInt8(ascii: "\n") { break }
            line.append(byte[0])
        }
        return String(decoding: line, as: UTF8.self)
    }
}
