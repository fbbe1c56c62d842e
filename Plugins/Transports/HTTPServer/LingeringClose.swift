import Dispatch
import Glibc

/// Closes a connection the way nginx's lingering close does: the answer is sent, the sending side
/// is shut, and what the client still sends is read and dropped (up to `maxBytes`, for at most
/// `maxDuration`) before the socket is closed.
///
/// A socket closed with unread input makes the kernel answer with a reset, and a client still
/// sending its body when the reset arrives loses the answer it was sent: Python's urllib, which
/// sends a body without waiting for `100 Continue`, reported a broken pipe instead of the 413 in
/// 38 of 40 tries. libmicrohttpd closes right after the answer, so the registry keeps a duplicate
/// of the socket (taken before libmicrohttpd closes its own) and hands it here.
enum LingeringClose {
    /// At most this much is read and dropped per connection.
    static let maxBytes = 16 << 20
    /// At most this long is spent per connection.
    static let maxDuration: DispatchTimeInterval = .seconds(5)
    private static let queue = DispatchQueue(label: "HTTPServer.lingering-close")

    /// Takes over `descriptor` (a duplicate the caller no longer uses) and closes it in the background.
    static func start(_ descriptor: Int32) {
        _ = shutdown(descriptor, Int32(SHUT_WR))
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        let timer = DispatchSource.makeTimerSource(queue: queue)
        nonisolated(unsafe) var drained = 0
        source.setEventHandler {
            var scratch = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                let count = recv(descriptor, &scratch, scratch.count, 0)
                if count > 0 {
                    drained += count
                    if drained > maxBytes { source.cancel(); return }
                    continue
                }
                if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }
                source.cancel()  // the client closed too, or the connection failed
                return
            }
        }
        source.setCancelHandler {
            timer.cancel()
            _ = close(descriptor)
        }
        timer.schedule(deadline: .now() + maxDuration)
        timer.setEventHandler { source.cancel() }
        timer.resume()
        source.resume()
    }
}
