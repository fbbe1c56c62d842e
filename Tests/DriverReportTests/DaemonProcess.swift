import FleetModel
import FleetTestSupport
import Foundation
import Glibc
import Testing

/// driver-report running as a child process: its standard input is a pipe the test writes to, its
/// standard error goes to a file the test reads at any time, and its status file is read as JSON.
final class DaemonProcess: @unchecked Sendable {
    let process = Process()
    let errorLog: URL
    let statusFile: URL
    private let input = Pipe()
    private let exited = DispatchSemaphore(value: 0)

    /// Starts driver-report with `arguments` (plus `--status-file` in `folder`).
    init(_ arguments: [String], folder: URL, name: String = "driver-report", environment: [String: String] = [:]) throws {
        errorLog = folder.appendingPathComponent("\(name).stderr")
        statusFile = folder.appendingPathComponent("\(name).status.json")
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        process.executableURL = try Products.locate("driver-report")
        process.arguments = arguments + ["--status-file", statusFile.path]
        process.environment = Products.quietEnvironment(home: folder).merging(environment) { $1 }
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errorLog)
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
    }

    /// Writes lines to the daemon's standard input.
    func write(_ lines: String...) {
        try? input.fileHandleForWriting.write(contentsOf: Data(lines.map { $0 + "\n" }.joined().utf8))
    }

    /// Closes its standard input (end of a `-` source).
    func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// Sends a signal.
    func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Waits for the exit (at most `timeout` seconds, then kills it and fails) and returns the status.
    func waitForExit(timeout: Double = 60) throws -> Int32 {
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("driver-report did not exit within \(timeout) s; its log:\n\(log)")
            throw Failure(description: "timeout")
        }
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    /// Its standard error so far.
    var log: String { (try? String(contentsOf: errorLog, encoding: .utf8)) ?? "" }

    /// The status file, when it exists and parses.
    var status: JSON? {
        guard let text = try? String(contentsOf: statusFile, encoding: .utf8) else { return nil }
        return try? JSON.parse(text)
    }

    /// Waits (bounded by `timeout` seconds of real time) until the status file satisfies `condition`.
    func waitForStatus(timeout: Double = 30, _ description: String, _ condition: (JSON) -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            // Checked once more after the deadline: on a busy test machine a sleep can outlast it.
            if let status, condition(status) { return }
            if !process.isRunning || Date() >= deadline { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("status never showed \(description); status: \(status.map { $0.serialized() } ?? "none")\nlog:\n\(log)")
        throw Failure(description: description)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }
}

/// Finds this package's built executables and gives runs a clean environment.
enum Products {
    /// The built product's path (`FleetTestSupport.Products.locate`).
    static func locate(_ product: String, file: String = #filePath) throws -> URL {
        try FleetTestSupport.Products.locate(product, file: file)
    }

    /// PATH, a UTF-8 locale and a private HOME: no FLEET_* or NOTIFY_SOCKET from the developer's shell.
    static func quietEnvironment(home: URL) -> [String: String] {
        ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": home.path]
    }

    /// Runs driver-report to the end with no input and returns its status and standard error.
    static func run(_ arguments: [String], folder: URL, timeout: Double = 60) throws -> (status: Int32, log: String) {
        let daemon = try DaemonProcess(arguments, folder: folder, name: "run-\(UUID().uuidString.prefix(8))")
        daemon.closeInput()
        let status = try daemon.waitForExit(timeout: timeout)
        return (status, daemon.log)
    }
}
