import Foundation
import Glibc

/// A plain blocking TCP client speaking HTTP/1.1 by hand, so the tests see exactly what the
/// server sends. Every read gives up after `timeout` so a broken server fails a test instead of hanging it.
final class RawHTTPConnection {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A response as read from the wire.
    struct Response {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        var text: String { String(decoding: body, as: UTF8.self) }
    }

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var isClosed = false

    /// Connects to host:port (an IPv4 or IPv6 literal); throws with `errno` (ECONNREFUSED…) when it cannot.
    init(host: String = "127.0.0.1", port: Int, timeout: Duration = .seconds(20)) throws {
        descriptor = try Self.connectedSocket(host: host, port: port, timeout: timeout)
    }

    /// Whether this machine has an IPv6 loopback address to test with.
    static let hasIPv6Loopback: Bool = {
        let probe = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { Glibc.close(probe) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        } == 0
    }()

    /// A socket connected to host:port. (Made before `self` exists: a class whose init throws
    /// after its properties are set runs deinit, which would close the descriptor a second time.)
    private static func connectedSocket(host: String, port: Int, timeout: Duration) throws -> Int32 {
        var storage = sockaddr_storage()
        var length: socklen_t
        if host.contains(":") {
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            try withUnsafeMutablePointer(to: &storage) {
                try $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    address.pointee.sin6_family = sa_family_t(AF_INET6)
                    address.pointee.sin6_port = in_port_t(port).bigEndian
                    guard inet_pton(AF_INET6, host, &address.pointee.sin6_addr) == 1 else { throw Failure(description: "bad host \(host)") }
                }
            }
        } else {
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            try withUnsafeMutablePointer(to: &storage) {
                try $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    address.pointee.sin_family = sa_family_t(AF_INET)
                    address.pointee.sin_port = in_port_t(port).bigEndian
                    guard inet_pton(AF_INET, host, &address.pointee.sin_addr) == 1 else { throw Failure(description: "bad host \(host)") }
                }
            }
        }
        let descriptor = socket(Int32(storage.ss_family), Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var seconds = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, length) }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        return descriptor
    }

    deinit { close() }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    /// Stops sending (the server reads end-of-file) but keeps reading.
    func finishSending() { shutdown(descriptor, Int32(SHUT_WR)) }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(descriptor)
    }

    /// Closes with a reset (SO_LINGER 0), as a crashed client would.
    func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close()
    }

    /// Reads one response: status line, headers, then a body by Content-Length, chunks, or to the end.
    func readResponse() throws -> Response {
        let head = try readHead()
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure(description: "bad status line in \(head)") }
        let headers = lines.filter { !$0.isEmpty }.map { line -> (name: String, value: String) in
            let colon = line.firstIndex(of: ":")!
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = Response(status: status, headers: headers, body: [])
        if let length = response.header("Content-Length").flatMap(Int.init) {
            response.body = try readExactly(length)
        } else if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            while let chunk = try readChunk() { response.body += chunk }
        } else {
            response.body = try readToEnd()
        }
        return response
    }

    /// Reads up to the blank line after the headers; returns them without it.
    func readHead() throws -> String {
        let terminator: [UInt8] = [13, 10, 13, 10]
        while true {
            if let range = firstRange(of: terminator) {
                let head = String(decoding: buffer[..<range.lowerBound], as: UTF8.self)
                buffer.removeFirst(range.upperBound)
                return head
            }
            guard try fill() else { throw Failure(description: "connection closed before the headers ended") }
        }
    }

    /// Reads one chunk of a chunked body; nil after the last (zero-size) chunk and its trailer.
    func readChunk() throws -> [UInt8]? {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine.split(separator: ";")[0], radix: 16) else { throw Failure(description: "bad chunk size '\(sizeLine)'") }
        if size == 0 {
            while try !readLine().isEmpty {}
            return nil
        }
        let chunk = try readExactly(size)
        _ = try readExactly(2)
        return chunk
    }

    func readLine() throws -> String {
        while true {
            if let range = firstRange(of: [13, 10]) {
                let line = String(decoding: buffer[..<range.lowerBound], as: UTF8.self)
                buffer.removeFirst(range.upperBound)
                return line
            }
            guard try fill() else { throw Failure(description: "connection closed in the middle of a line") }
        }
    }

    func readExactly(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill() else { throw Failure(description: "connection closed after \(buffer.count) of \(count) bytes") }
        }
        let bytes = Array(buffer[..<count])
        buffer.removeFirst(count)
        return bytes
    }

    func readToEnd() throws -> [UInt8] {
        while try fill() {}
        defer { buffer = [] }
        return buffer
    }

    /// Whether the server closed the connection (end of file or reset) without sending anything more.
    func isClosedByServer() -> Bool {
        guard buffer.isEmpty else { return false }
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, 0)
        return count == 0 || (count < 0 && errno == ECONNRESET)
    }

    /// Reads more bytes into the buffer; false at end of file; throws on errors (a reset counts as end).
    @discardableResult
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            buffer += chunk[..<count]
            return true
        }
        if count == 0 || errno == ECONNRESET { return false }
        throw Failure(description: "recv: \(String(cString: strerror(errno)))")
    }

    private func firstRange(of pattern: [UInt8]) -> Range<Int>? {
        guard buffer.count >= pattern.count else { return nil }
        for start in 0...(buffer.count - pattern.count) where buffer[start] == pattern[0] {
            if pattern.indices.allSatisfy({ buffer[start + $0] == pattern[$0] }) { return start..<start + pattern.count }
        }
        return nil
    }
}
