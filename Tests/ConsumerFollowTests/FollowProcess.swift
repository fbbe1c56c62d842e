import FleetTestSupport
import Foundation
import Synchronization

/// A running `consumer-follow`: its standard output and error read as they come, so that a test can
/// drive the trip step by step and wait for each step's events, then stop it with a signal.
final class FollowProcess: Sendable {
    private let process: Process
    private let streams = Mutex((output: "", error: ""))
    private let changed = NSCondition()
    private let readers = DispatchGroup()

    /// Starts the built `consumer-follow` with `arguments` and only `environment` (plus PATH and a UTF-8 locale).
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process = Process()
        process.executableURL = try Products.locate("consumer-follow")
        process.arguments = arguments
        process.environment = BinaryRunner.quietEnvironment.merging(environment) { $1 }
        let outputPipe = Pipe(), errorPipe = Pipe()
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        read(outputPipe.fileHandleForReading) { text in self.streams.withLock { $0.output += text } }
        read(errorPipe.fileHandleForReading) { text in self.streams.withLock { $0.error += text } }
    }

    private func read(_ handle: FileHandle, append: @escaping @Sendable (String) -> Void) {
        readers.enter()
        let thread = Thread { [changed, readers] in
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                append(String(decoding: data, as: UTF8.self))
                changed.lock()
                changed.broadcast()
                changed.unlock()
            }
            readers.leave()
        }
        thread.start()
    }

    /// Standard output so far.
    var output: String { streams.withLock { $0.output } }
    /// Standard error so far.
    var error: String { streams.withLock { $0.error } }
    /// The complete lines of standard output so far.
    var lines: [String] {
        let text = output
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Waits until `predicate` holds for the output lines (at most `timeout` seconds: a safety net,
    /// not a pace); returns whether it does.
    @discardableResult
    func waitForLines(timeout: Double = 20, _ predicate: ([String]) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        changed.lock()
        defer { changed.unlock() }
        while !predicate(lines) {
            if !process.isRunning && !predicate(lines) {
                changed.unlock()
                readers.wait()
                changed.lock()
                return predicate(lines)
            }
            _ = changed.wait(until: min(deadline, Date(timeIntervalSinceNow: 0.2)))
            if Date() >= deadline { return predicate(lines) }
        }
        return true
    }

    /// Runs `consumer-follow` to its end; its exit status, standard output and standard error.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String, error: String) {
        let running = try FollowProcess(arguments, environment: environment)
        let status = running.waitForExit()
        return (status, running.output, running.error)
    }

    /// Sends a signal (SIGINT: Ctrl-C).
    func signal(_ number: Int32 = SIGINT) {
        kill(process.processIdentifier, number)
    }

    /// Waits for the process to end (at most `timeout` seconds, then it is killed) and returns its
    /// exit status, 128 + the signal's number when a signal ended it.
    func waitForExit(timeout: Double = 30) -> Int32 {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning && Date() < deadline {
            changed.lock()
            _ = changed.wait(until: Date(timeIntervalSinceNow: 0.1))
            changed.unlock()
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        readers.wait()
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }
}
