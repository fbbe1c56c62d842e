import Foundation

/// Runs a built executable of this package (`error-explain`, `fleet-admin`, …) with arguments
/// and standard input, and captures its standard output, standard error and exit status.
///
/// The executables must be built before the tests run: `swift build` (or `swift build
/// --build-tests`, which `swift test` does) puts them next to the test bundle, in the products
/// folder (`.build/debug`). Set `FLEET_PRODUCTS_DIR` to look elsewhere.
public struct BinaryRunner: Sendable {
    /// What the program reads on standard input.
    public enum Input: Sendable {
        /// An empty pipe (end of input at once).
        case none
        /// This text.
        case text(String)
        /// These bytes (invalid UTF-8 allowed).
        case bytes([UInt8])
        /// The file or folder at this path, opened for reading (a folder gives EISDIR on read).
        case path(String)
        /// No standard input at all: descriptor 0 closed.
        case closed
    }

    /// What a run produced.
    public struct Result: Sendable, CustomStringConvertible {
        /// The exit status (128 + signal number when a signal ended it).
        public let status: Int32
        /// Standard output, decoded as UTF-8.
        public let output: String
        /// Standard error, decoded as UTF-8.
        public let error: String

        public var description: String { "status \(status)\n--- stdout\n\(output)--- stderr\n\(error)" }
    }

    /// Why a run could not be made.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// The executable.
    public let executable: URL

    /// A runner for the product named `product`; fails when it has not been built.
    public init(product: String) throws {
        executable = try Self.locate(product)
        _ = Self.ignoreBrokenPipes
    }

    /// The test process ignores SIGPIPE, so feeding standard input to a program that exited
    /// without reading it cannot kill the test runner.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN); return () }()

    /// Programs start through `env --default-signal=PIPE` (GNU coreutils 8.31+), so they get
    /// SIGPIPE at its default as from a shell, not the test runner's "ignore". Empty when `env`
    /// cannot do it.
    public static let launcher: [String] = {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["--default-signal=PIPE", "true"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return [] }
        probe.waitUntilExit()
        return probe.terminationStatus == 0 ? ["/usr/bin/env", "--default-signal=PIPE"] : []
    }()

    /// Points `process` at `command` (the program first), through `launcher`.
    private static func configure(_ process: Process, command: [String]) {
        let full = launcher + command
        process.executableURL = URL(fileURLWithPath: full[0])
        process.arguments = Array(full.dropFirst())
    }

    /// The built product's path (`Products.locate`).
    public static func locate(_ product: String, file: String = #filePath) throws -> URL {
        try Products.locate(product, file: file)
    }

    /// The environment runs get unless told otherwise: PATH and a UTF-8 locale only, so colour
    /// variables and FLEET_* settings of the developer's shell do not leak in.
    public static var quietEnvironment: [String: String] {
        ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8"]
    }

    /// Runs the program and waits for it (at most `timeout`, then it is killed and the run fails).
    public func run(_ arguments: [String], input: Input = .none, environment: [String: String] = BinaryRunner.quietEnvironment,
             timeout: TimeInterval = 60) throws -> Result {
        let process = Process()
        var environment = environment
        switch input {
        case .closed:
            Self.configure(process, command: ["/bin/sh", "-c", #"exec "$0" "$@" <&-"#, executable.path] + arguments)
        case .path(let path):
            environment["BINARY_RUNNER_INPUT"] = path
            Self.configure(process, command: ["/bin/sh", "-c", #"exec "$0" "$@" < "$BINARY_RUNNER_INPUT""#, executable.path] + arguments)
        case .none, .text, .bytes:
            Self.configure(process, command: [executable.path] + arguments)
        }
        process.environment = environment

        let inputPipe = Pipe(), outputPipe = Pipe(), errorPipe = Pipe()
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        switch input {
        case .none, .text, .bytes: process.standardInput = inputPipe
        case .closed, .path: process.standardInput = FileHandle.nullDevice
        }

        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()

        let bytes: [UInt8]
        switch input {
        case .text(let text): bytes = Array(text.utf8)
        case .bytes(let given): bytes = given
        default: bytes = []
        }
        let writer = DispatchQueue(label: "BinaryRunner.stdin")
        writer.async {
            if !bytes.isEmpty { try? inputPipe.fileHandleForWriting.write(contentsOf: bytes) }
            try? inputPipe.fileHandleForWriting.close()
        }
        let collected = Collected()
        let readers = DispatchGroup()
        DispatchQueue.global().async(group: readers) { collected.setOutput(outputPipe.fileHandleForReading.readDataToEndOfFile()) }
        DispatchQueue.global().async(group: readers) { collected.setError(errorPipe.fileHandleForReading.readDataToEndOfFile()) }

        if finished.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            throw Failure(description: "\(executable.lastPathComponent) \(arguments) did not finish in \(timeout) s")
        }
        readers.wait()
        // Foundation's pipes keep their descriptors until the Pipe is freed, which a run's may never be:
        // closed here, or a test run that starts a binary a thousand times holds thousands of them.
        for handle in [inputPipe.fileHandleForReading, outputPipe.fileHandleForReading, errorPipe.fileHandleForReading] {
            try? handle.close()
        }
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return Result(status: status, output: String(decoding: collected.output, as: UTF8.self),
                      error: String(decoding: collected.error, as: UTF8.self))
    }

    /// Runs the program with standard output connected to a pipe nobody reads (its read end is
    /// closed before the program starts), so every write fails with EPIPE and, unless the program
    /// ignores it, SIGPIPE ends it. Returns the exit status (141 for SIGPIPE).
    public func runWithClosedOutput(_ arguments: [String], environment: [String: String] = BinaryRunner.quietEnvironment) throws -> Int32 {
        let process = Process()
        Self.configure(process, command: [executable.path] + arguments)
        process.environment = environment
        let outputPipe = Pipe()
        try outputPipe.fileHandleForReading.close()
        process.standardOutput = outputPipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try? outputPipe.fileHandleForWriting.close()
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }
}

/// The two captured streams, filled from two reader threads.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var outputData = Data()
    private var errorData = Data()

    func setOutput(_ data: Data) { lock.withLock { outputData = data } }
    func setError(_ data: Data) { lock.withLock { errorData = data } }
    var output: Data { lock.withLock { outputData } }
    var error: Data { lock.withLock { errorData } }
}
