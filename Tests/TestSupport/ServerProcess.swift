import Foundation

/// A real `fleet-admin serve` on an ephemeral loopback port, for tests. Stopped (SIGTERM) on `stop()`
/// or when released.
public final class ServerProcess: @unchecked Sendable {
    /// `http://127.0.0.1:PORT`.
    public let url: String
    /// The line the server printed once ready (`listening on http://… and grpc://… (…)`).
    public let banner: String
    public let process: Process
    private let errors: Pipe
    private let collected = OutputBuffer()

    /// Starts the server and waits (up to `timeout` seconds) for it to print where it listens.
    public init(store: String = "memory", arguments: [String] = [], environment: [String: String]? = nil,
                product: String = "fleet-admin", listen: String = "127.0.0.1:0", timeout: Double = 30) throws {
        let binary = try Products.locate(product)
        process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--listen", listen, "--store", store, "--no-access-log"] + arguments
        var env = environment ?? ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NOTIFY_SOCKET")
        process.environment = env
        let output = Pipe()
        errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        ChildProcesses.register(process.processIdentifier)
        let collected = self.collected
        errors.fileHandleForReading.readabilityHandler = { handle in
            collected.append(handle.availableData)
        }

        // The first stdout line is "listening on http://HOST:PORT (…)".
        let deadline = Date().addingTimeInterval(timeout)
        var line: [UInt8] = []
        let reader = output.fileHandleForReading
        while Date() < deadline {
            let byte = reader.readData(ofLength: 1)
            if byte.isEmpty { break }
            if byte[0] == UInt8(ascii: "\n") { break }
            line.append(byte[0])
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let start = text.range(of: "http://") else {
            process.terminate()
            process.waitUntilExit()
            throw StartFailure(output: text, errors: collected.text)
        }
        url = String(text[start.lowerBound...].prefix { $0 != " " })
        banner = text
    }

    /// What the server wrote to standard error so far.
    public var standardError: String { collected.text }

    /// How many `method` calls (`GetTaskTrackingInfo`, `WatchTaskTrackingInfo`…) the server has
    /// answered, whatever their code, from its `/metrics` (`token`: a server token, for a server that
    /// checks tokens).
    public func calls(_ method: String, token: String? = nil) throws -> Int {
        let headers = token.map { [("Authorization", "Bearer \($0)")] } ?? []
        let metrics = try RawHTTP.exchange(url, RawHTTP.request("GET", "/metrics", headers: headers))
        guard metrics.status == 200 else { throw BinaryRunner.Failure(description: "GET /metrics: \(metrics.status ?? 0) \(metrics.body)") }
        return metrics.body.split(separator: "\n")
            .filter { $0.hasPrefix("fleet_requests_total{method=\"\(method)\",") }
            .compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }
            .reduce(0, +)
    }

    /// SIGTERM and wait; returns the exit status.
    @discardableResult
    public func stop() -> Int32 {
        if process.isRunning {
            process.terminate()
        }
        process.waitUntilExit()
        // What the server wrote last (its "stopped" line) may still sit in the pipe: read it to the
        // end, which the exited server has closed, instead of dropping it with the handler.
        errors.fileHandleForReading.readabilityHandler = nil
        collected.append(errors.fileHandleForReading.readDataToEndOfFile())
        return process.terminationStatus
    }

    /// SIGKILL: the server dies without cleaning up.
    public func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    public struct StartFailure: Error, CustomStringConvertible {
        public let output: String
        public let errors: String
        public var description: String { "fleet-admin serve did not start: stdout \(output.debugDescription), stderr \(errors.debugDescription)" }
    }
}

/// Bytes collected from another thread.
final class OutputBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []

    func append(_ data: Data) { lock.withLock { bytes += data } }
    var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }
}

/// Servers started by tests, killed when the test process exits (a server held in a `static let`
/// is never released, and children outlive their parent otherwise).
enum ChildProcesses {
    nonisolated(unsafe) static var pids: [Int32] = []
    static let lock = NSLock()
    nonisolated(unsafe) static var installed = false

    static func register(_ pid: Int32) {
        lock.withLock {
            pids.append(pid)
            if !installed {
                installed = true
                atexit {
                    ChildProcesses.lock.withLock {
                        for pid in ChildProcesses.pids { kill(pid, SIGTERM) }
                    }
                }
            }
        }
    }
}
