import FleetErrors
import Glibc

/// A TCP connection to a line-based server (gpsd), opened with a time limit and read with `poll`, so a
/// server that does not answer never blocks cancellation for long.
final class TCPConnection {
    /// The socket.
    let descriptor: Int32

    /// Connects to `host`:`port` (a name, IPv4 or IPv6 address), trying each address in turn.
    /// - Throws: UNAVAILABLE (`locationSourceFailed`) naming the address and the system's reason.
    init(host: String, port: Int, timeoutSeconds: Double) throws {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw FleetError(.locationSourceFailed, detail: "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var lastReason = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let socketDescriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue),
                                          address.pointee.ai_protocol)
            guard socketDescriptor >= 0 else {
                lastReason = String(cString: strerror(errno))
                continue
            }
            let flags = fcntl(socketDescriptor, F_GETFL, 0)
            _ = fcntl(socketDescriptor, F_SETFL, flags | O_NONBLOCK)
            var result = connect(socketDescriptor, address.pointee.ai_addr, address.pointee.ai_addrlen)
            if result != 0 && errno == EINPROGRESS {
                var request = pollfd(fd: socketDescriptor, events: Int16(POLLOUT), revents: 0)
                if poll(&request, 1, Int32(timeoutSeconds * 1000)) == 1 {
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(socketDescriptor, SOL_SOCKET, SO_ERROR, &error, &length)
                    result = error == 0 ? 0 : -1
                    errno = error
                } else {
                    result = -1
                    errno = ETIMEDOUT
                }
            }
            if result == 0 {
                _ = fcntl(socketDescriptor, F_SETFL, flags)
                descriptor = socketDescriptor
                return
            }
            lastReason = String(cString: strerror(errno))
            close(socketDescriptor)
        }
        throw FleetError(.locationSourceFailed, detail: "cannot connect to \(host):\(port): \(lastReason)")
    }

    deinit {
        close(descriptor)
    }

    /// Sends all of `text`.
    /// - Throws: UNAVAILABLE (`locationSourceFailed`) when the connection is broken.
    func send(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                throw FleetError(.locationSourceFailed, detail: "sending failed: \(String(cString: strerror(errno)))")
            }
            bytes = bytes.dropFirst(sent)
        }
    }
}
