import Dispatch
import Glibc

/// Writes an answer straight to a connection's socket, for an answer libmicrohttpd can no longer
/// send: a parked write whose request libmicrohttpd ended when its client half-closed
/// (`DeferredReply.divert(to:)`). The client sent the whole request and is still reading; the write
/// is applied, so the client must learn its outcome.
enum DirectReply {
    /// How long the answer may take to leave before the connection is given up.
    static let sendTimeoutMilliseconds: Int32 = 5000
    private static let queue = DispatchQueue(label: "HTTPServer.direct-reply")

    /// Takes over `descriptor` (a duplicate of the connection's socket the caller no longer uses),
    /// writes `response` with `Connection: close`, and closes it lingering.
    static func send(_ response: HTTPResponse, method: String, on descriptor: Int32) {
        var serialized = response.serialized(status: (100...999).contains(response.status) ? response.status : 500, closing: true)
        if method == "HEAD" { serialized.removeLast(response.body.count) }
        let bytes = serialized
        queue.async {
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes {
                    Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
                }
                if count > 0 {
                    sent += count
                    continue
                }
                guard count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { break }
                var writable = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                guard poll(&writable, 1, sendTimeoutMilliseconds) > 0, writable.revents & Int16(POLLOUT) != 0 else { break }
            }
            LingeringClose.start(descriptor)
        }
    }
}
