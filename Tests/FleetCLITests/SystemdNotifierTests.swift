import Foundation
import Glibc
import FleetCLI
import Testing

@Suite("sd_notify")
struct SystemdNotifierTests {
    /// A datagram socket bound to `path` (a leading `@` means the abstract namespace), as systemd makes.
    private final class NotifySocket {
        let descriptor: Int32

        init(path: String) throws {
            descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            var bytes = Array(path.utf8)
            if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
            let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (bytes.first == 0 ? 0 : 1)
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(length)) }
            }
            guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit { close(descriptor) }

        func receive() -> String? {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            return count < 0 ? nil : String(decoding: buffer[..<count], as: UTF8.self)
        }
    }

    @Test func messagesArriveOnAPathSocket() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString).sock").path
        defer { unlink(path) }
        let socket = try NotifySocket(path: path)
        let notifier = SystemdNotifier(socketPath: path)
        #expect(notifier.ready())
        #expect(socket.receive() == "READY=1")
        #expect(notifier.status("serving on\n127.0.0.1:8080"))
        #expect(socket.receive() == "STATUS=serving on 127.0.0.1:8080")
        #expect(notifier.watchdog())
        #expect(socket.receive() == "WATCHDOG=1")
        #expect(notifier.send("STOPPING=1", "STATUS=draining"))
        #expect(socket.receive() == "STOPPING=1\nSTATUS=draining")
        #expect(notifier.stopping())
        #expect(socket.receive() == "STOPPING=1")
    }

    @Test func abstractNamespaceSocketsAreReached() throws {
        let name = "@fleet-notify-test-\(UUID().uuidString)"
        let socket = try NotifySocket(path: name)
        #expect(SystemdNotifier(socketPath: name).ready())
        #expect(socket.receive() == "READY=1")
    }

    @Test func withoutASocketNothingIsSent() {
        #expect(SystemdNotifier(socketPath: nil).ready() == false)
        #expect(SystemdNotifier(socketPath: "").socketPath == nil)
        #expect(SystemdNotifier(socketPath: "/nonexistent/dir/notify.sock").ready() == false)
        #expect(SystemdNotifier(socketPath: "/" + String(repeating: "x", count: 200)).ready() == false)
    }

    @Test func watchdogIntervalComesFromTheEnvironment() {
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "30000000"], processID: 7) == .seconds(30))
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "500", "WATCHDOG_PID": "7"], processID: 7) == .microseconds(500))
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "500", "WATCHDOG_PID": "8"], processID: 7) == nil)
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "0"], processID: 7) == nil)
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "soon"], processID: 7) == nil)
        #expect(SystemdNotifier.watchdogInterval(environment: [:], processID: 7) == nil)
    }
}
