import FleetTestSupport
import Foundation
import Glibc
import Synchronization
import Testing

@Suite("driver-report under systemd (Type=notify)", .serialized)
struct SystemdNotifyTests {
    @Test("It sends READY once started, WATCHDOG pings and STATUS while tracking, and STOPPING on stop")
    func notifies() async throws {
        let fleet = try SharedFleet()
        try fleet.createVehicle("cab-9")
        let notify = try NotifySocket(folder: fleet.folder)
        let daemon = try DaemonProcess(fleet.transportArguments + ["--vehicle", "cab-9", "--source", "jsonl:-"], folder: fleet.folder,
                                       environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "400000", "JOURNAL_STREAM": "8:1"])
        daemon.write(#"{"lat": 52.37, "lng": 4.89}"#)
        do {
            try await daemon.waitForStatus("READY and two WATCHDOG pings") { _ in
                notify.received.contains("READY=1") && notify.received.filter { $0 == "WATCHDOG=1" }.count >= 2
            }
        } catch {
            let received = notify.received
            Issue.record("notify socket received \(received.count) messages, READY: \(received.contains("READY=1")), WATCHDOG: \(received.filter { $0 == "WATCHDOG=1" }.count)")
            throw error
        }
        #expect(notify.received.contains { $0.hasPrefix("STATUS=") })
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
        for _ in 0..<100 where !notify.received.contains("STOPPING=1") { try await Task.sleep(for: .milliseconds(10)) }
        let messages = notify.received
        #expect(messages.contains("STOPPING=1"))
        #expect(messages.firstIndex(of: "READY=1")! < messages.firstIndex(of: "STOPPING=1")!)
        #expect(daemon.log.hasPrefix("<"), "lines for journald start with the syslog priority: \(daemon.log.prefix(40))")
        #expect(daemon.log.contains("<5>notice started"))
    }
}
