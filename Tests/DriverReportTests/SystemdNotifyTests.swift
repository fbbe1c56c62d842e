import Foundation
import Glibc
import Synchronization
import Testing

/// A `NOTIFY_SOCKET` as systemd provides it: a unix datagram socket whose messages the test collects.
final class NotifySocket: @unchecked Sendable {
    let path: String
    private let descriptor: Int32
    private let messages = Mutex<[String]>([])
    private let reading = Atomic<Bool>(true)

    init(folder: URL) throws {
        path = folder.appendingPathComponent("notify.sock").path
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while reading.load(ordering: .relaxed) {
                var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&request, 1, 100) == 1 else { continue }
                let count = recv(descriptor, &buffer, buffer.count, 0)
                if count > 0 { messages.withLock { $0.append(String(decoding: buffer[0..<count], as: UTF8.self)) } }
            }
        }.start()
    }

    /// Every message received so far.
    var received: [String] { messages.withLock { $0 } }

    deinit {
        reading.store(false, ordering: .relaxed)
        usleep(150_000)
        close(descriptor)
    }
}

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
