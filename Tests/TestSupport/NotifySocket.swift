import Foundation
import Glibc
import Synchronization

/// A `NOTIFY_SOCKET` as systemd provides it: a unix datagram socket whose messages the test collects.
public final class NotifySocket: @unchecked Sendable {
    /// The socket's path, for `NOTIFY_SOCKET`.
    public let path: String
    private let descriptor: Int32
    private let messages = Mutex<[String]>([])
    private let reading = Atomic<Bool>(true)

    /// Binds `notify.sock` in `folder` and collects what arrives until released.
    public init(folder: URL) throws {
        path = folder.appendingPathComponent("notify.sock").path
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            close(descriptor)
            throw BinaryRunner.Failure(description: "cannot bind the notify socket \(path): errno \(errno)")
        }
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
    public var received: [String] { messages.withLock { $0 } }

    deinit {
        reading.store(false, ordering: .relaxed)
        usleep(150_000)
        close(descriptor)
    }
}
