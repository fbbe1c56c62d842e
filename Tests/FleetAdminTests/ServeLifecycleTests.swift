import FleetTestSupport
import Foundation
import Glibc
import Testing

/// `fleet-admin serve` as systemd runs it (Type=notify): READY once it listens, watchdog pings,
/// STOPPING on SIGTERM, then a graceful stop with exit 0.
@Suite(.serialized) struct ServeLifecycleTests {
    @Test func notifiesSystemdAndStopsGracefullyOnSIGTERM() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-lifecycle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let notify = try NotifySocket(folder: folder)
        let process = Process()
        process.executableURL = try Products.locate("fleet-admin")
        process.arguments = ["serve", "--listen", "127.0.0.1:0", "--store", "memory", "--no-access-log", "--no-map"]
        var environment = BinaryRunner.quietEnvironment
        environment["NOTIFY_SOCKET"] = notify.path
        environment["WATCHDOG_USEC"] = "400000"
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }

        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        #expect(line.hasPrefix("listening on http://127.0.0.1:"), "\(line)")
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !(notify.received.contains { $0.hasPrefix("READY=1") } && notify.received.contains("WATCHDOG=1")) {
            usleep(50_000)
        }
        let ready = notify.received.first { $0.hasPrefix("READY=1") }
        #expect(ready?.contains("STATUS=serving on http://127.0.0.1:") == true, "\(notify.received)")
        #expect(notify.received.contains("WATCHDOG=1"), "\(notify.received)")

        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).contains("fleet-admin serve: stopped"))
        usleep(200_000)
        #expect(notify.received.contains { $0.hasPrefix("STOPPING=1") }, "\(notify.received)")
    }
}
