import Foundation
import Glibc

/// Tells systemd about the service's state with the sd_notify protocol: one datagram of
/// `NAME=value` lines sent to the unix socket named by `NOTIFY_SOCKET`.
///
/// With no socket (not started by systemd, or `Type=` other than `notify`) every call does
/// nothing and returns false. A path starting with `@` is in the abstract namespace.
public struct SystemdNotifier: Sendable {
    /// The socket path messages go to, nil when there is none.
    public let socketPath: String?

    /// A notifier for this socket path; by default the one in `NOTIFY_SOCKET`.
    public init(socketPath: String? = ProcessInfo.processInfo.environment["NOTIFY_SOCKET"]) {
        self.socketPath = socketPath.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `READY=1`: start-up is finished (call it once the server listens).
    @discardableResult public func ready() -> Bool { send("READY=1") }

    /// `STOPPING=1`: the service is shutting down.
    @discardableResult public func stopping() -> Bool { send("STOPPING=1") }

    /// `WATCHDOG=1`: the service is alive (send it at about half of `watchdogInterval`).
    @discardableResult public func watchdog() -> Bool { send("WATCHDOG=1") }

    /// `STATUS=…`: a one-line status shown by `systemctl status`.
    @discardableResult public func status(_ text: String) -> Bool {
        send("STATUS=" + text.replacingOccurrences(of: "\n", with: " "))
    }

    /// Sends these assignments (`READY=1`, `STATUS=…`) as one message; true when it was delivered.
    @discardableResult public func send(_ assignments: String...) -> Bool {
        send(lines: assignments)
    }

    /// Sends these assignments as one message, one per line; true when it was delivered.
    @discardableResult public func send(lines: [String]) -> Bool {
        guard let socketPath, var address = Self.unixAddress(socketPath) else { return false }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let message = Array(lines.joined(separator: "\n").utf8)
        let sent = withUnsafePointer(to: &address.storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                message.withUnsafeBytes { bytes in
                    sendto(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), socketAddress, address.length)
                }
            }
        }
        return sent == message.count
    }

    /// The watchdog interval systemd expects pings within (`WATCHDOG_USEC`), when it is meant for
    /// this process (`WATCHDOG_PID` unset or equal to our PID); nil otherwise.
    public static func watchdogInterval(environment: [String: String] = ProcessInfo.processInfo.environment,
                                        processID: Int32 = getpid()) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"], let microseconds = UInt64(text), microseconds > 0 else {
            return nil
        }
        if let pid = environment["WATCHDOG_PID"], Int32(pid) != processID { return nil }
        return .microseconds(Int64(clamping: microseconds))
    }

    /// A `sockaddr_un` for the path and its length; nil when the path is too long.
    private static func unixAddress(_ path: String) -> (storage: sockaddr_un, length: socklen_t)? {
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        // A path needs room for its terminating NUL; an abstract name does not have one.
        guard bytes.count < capacity || (abstract && bytes.count <= capacity) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
        }
        let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1)
        return (address, socklen_t(length))
    }
}
