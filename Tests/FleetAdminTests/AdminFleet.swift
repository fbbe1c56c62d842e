import FleetTestSupport
import FleetModel
import Foundation
import Testing

/// How the binary tests reach the engine: the one parameter that changes between runs.
enum AdminTransport: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `--transport memory --store sqlite:<temp file>`: the engine runs in each fleet-admin process,
    /// and state persists between invocations through the SQLite file.
    case memory
    /// `--transport file:<temp file>`: a journal of calls, applied by an engine in each process.
    case file
    /// `--transport http://127.0.0.1:<port>` to a `fleet-admin serve` over a temporary SQLite store.
    case http

    var testDescription: String { rawValue }
}

/// A temporary fleet for one test: a folder, a SQLite store, for `http` a running
/// `fleet-admin serve` over it, and `run` to call the built fleet-admin against it.
final class AdminFleet: @unchecked Sendable {
    /// The transport under test.
    let transport: AdminTransport
    /// The provider every command names.
    let provider: String
    /// The folder holding the store and any files the test writes (removed at the end).
    let directory: URL
    /// `sqlite:<directory>/fleet.db`.
    let storeURL: String
    /// The server's base URL, for `http`.
    private(set) var baseURL: String?
    private var server: Process?
    private let runner: BinaryRunner

    /// A fresh fleet; `serverArguments` are added to `fleet-admin serve` (for `http`).
    init(_ transport: AdminTransport, provider: String = "demo", serverArguments: [String] = []) throws {
        self.transport = transport
        self.provider = provider
        runner = try BinaryRunner(product: "fleet-admin")
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-admin-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        storeURL = "sqlite:" + directory.appendingPathComponent("fleet.db").path
        if transport == .http { try startServer(serverArguments) }
    }

    deinit {
        if let server, server.isRunning {
            server.terminate()
            server.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// The arguments that select this fleet: transport (and store) and provider.
    var globalArguments: [String] {
        switch transport {
        case .memory: ["--transport", "memory", "--store", storeURL, "--provider", provider]
        case .file: ["--transport", "file:" + directory.appendingPathComponent("journal.jsonl").path, "--provider", provider]
        case .http: ["--transport", baseURL ?? "", "--provider", provider]
        }
    }

    /// Runs `fleet-admin <global arguments> <arguments>`.
    func run(_ arguments: [String], input: BinaryRunner.Input = .none,
             environment: [String: String] = BinaryRunner.quietEnvironment) throws -> BinaryRunner.Result {
        try runner.run(globalArguments + arguments, input: input, environment: environment)
    }

    /// Runs fleet-admin without the fleet's global arguments (token commands, help).
    func runBare(_ arguments: [String], input: BinaryRunner.Input = .none,
                 environment: [String: String] = BinaryRunner.quietEnvironment) throws -> BinaryRunner.Result {
        try runner.run(arguments, input: input, environment: environment)
    }

    /// Runs a command that must succeed and returns its standard output.
    @discardableResult
    func succeed(_ arguments: [String], input: BinaryRunner.Input = .none,
                 sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try run(arguments, input: input)
        #expect(result.status == 0, "fleet-admin \(arguments.joined(separator: " ")): \(result)", sourceLocation: sourceLocation)
        return result.output
    }

    /// Runs a command with `--json` that must succeed and decodes its output as `Message`.
    func json<Message: ProtoMessage>(_ type: Message.Type, _ arguments: [String], input: BinaryRunner.Input = .none,
                                     sourceLocation: SourceLocation = #_sourceLocation) throws -> Message {
        try Message(jsonString: try succeed(arguments + ["--json"], input: input, sourceLocation: sourceLocation))
    }

    /// A path in the fleet's folder.
    func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// Writes `text` to a file in the fleet's folder and returns its path.
    func write(_ name: String, _ text: String) throws -> String {
        let file = path(name)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    private func startServer(_ extra: [String]) throws {
        let process = Process()
        process.executableURL = runner.executable
        process.arguments = ["serve", "--listen", "127.0.0.1:0", "--store", storeURL, "--no-access-log"] + extra
        process.environment = BinaryRunner.quietEnvironment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        server = process
        var text = ""
        while !text.contains("\n") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        guard let range = text.range(of: #"http://[0-9.]+:[0-9]+"#, options: .regularExpression) else {
            throw BinaryRunner.Failure(description: "fleet-admin serve did not say where it listens: \(text)")
        }
        baseURL = String(text[range])
    }
}
