import Glibc

/// Reads whatever a file descriptor has, waiting at most a given time: the loop of stream feeds, which
/// must notice cancellation while a pipe, terminal or socket is quiet.
enum DescriptorReader {
    /// The outcome of one read.
    enum Outcome {
        case bytes([UInt8])
        case timedOut
        case endOfFile
        case failed(String)
    }

    /// Waits up to `timeoutMilliseconds` for input on `descriptor`, then reads up to 64 KiB.
    static func read(_ descriptor: Int32, timeoutMilliseconds: Int32) -> Outcome {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&request, 1, timeoutMilliseconds)
        if ready == 0 { return .timedOut }
        if ready < 0 {
            return errno == EINTR ? .timedOut : .failed(String(cString: strerror(errno)))
        }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        if count > 0 { return .bytes(Array(buffer[0..<count])) }
        if count == 0 { return .endOfFile }
        if errno == EINTR || errno == EAGAIN { return .timedOut }
        return .failed(String(cString: strerror(errno)))
    }
}
