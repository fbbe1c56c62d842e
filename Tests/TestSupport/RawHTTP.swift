import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Sends raw bytes to a server and reads the answer: for requests no well-behaved client would send
/// (lying Content-Length, broken UTF-8, odd paths).
public enum RawHTTP {
    public struct Answer: Sendable {
        /// The status code, nil when the server closed without answering.
        public var status: Int?
        public var body: String
    }

    /// Connects to `url`'s host and port, writes `request`, optionally half-closes, reads until the
    /// server closes or `timeout` seconds pass.
    public static func exchange(_ url: String, _ request: [UInt8], halfClose: Bool = true, timeout: Double = 10) throws -> Answer {
        let fd = try connect(url, timeout: timeout)
        defer { close(fd) }
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            sent += n
        }
        if halfClose { shutdown(fd, Int32(SHUT_WR)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        let text = String(decoding: received, as: UTF8.self)
        let status = text.hasPrefix("HTTP/1.") ? Int(text.dropFirst(9).prefix(3)) : nil
        let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
        return Answer(status: status, body: body)
    }

    /// A TCP socket connected to `url`'s host and port (IPv4), whose reads give up after `timeout`
    /// seconds. The caller closes it.
    public static func connect(_ url: String, timeout: Double = 10) throws -> Int32 {
        let hostPort = url.replacingOccurrences(of: "http://", with: "")
        let parts = hostPort.split(separator: ":")
        guard parts.count == 2, let port = UInt16(parts[1]) else { throw POSIXError(.EINVAL) }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr(String(parts[0]))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        return fd
    }

    /// A request with a body and the given headers (Content-Length computed unless given; a body is
    /// labelled `application/json` unless a Content-Type is given).
    public static func request(_ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) -> [UInt8] {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if !headers.contains(where: { $0.0.lowercased() == "content-length" }) && (!body.isEmpty || method == "POST" || method == "PUT") {
            head += "Content-Length: \(body.count)\r\n"
        }
        if !body.isEmpty && !headers.contains(where: { $0.0.lowercased() == "content-type" }) {
            head += "Content-Type: application/json\r\n"
        }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        return Array((head + "\r\n").utf8) + body
    }
}
