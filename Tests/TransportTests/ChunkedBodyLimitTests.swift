import FleetTestSupport
import Foundation
import Glibc
import Testing

/// The real `fleet-admin serve` against chunked bodies over `--max-body`: answered 413 with Google's
/// error body as soon as the body passes the limit (not when it ends), and read no further than the
/// lingering close's bound.
@Suite(.serialized) struct ChunkedBodyLimitTests {
    static let limit = 64 << 10
    /// One chunk of 16 KiB of spaces.
    static let chunk = Array(("4000\r\n" + String(repeating: " ", count: 0x4000) + "\r\n").utf8)
    static let head = Array("POST /v1/providers/p/vehicles?vehicleId=big HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)

    @Test func aChunkedBodyOverTheLimitIsAnswered413AtTheLimitAndTheConnectionCloses() throws {
        let server = try ServerProcess(arguments: ["--max-body", "\(Self.limit)"])
        defer { server.stop() }
        let socket = try RawHTTP.connect(server.url, timeout: 10)
        defer { close(socket) }
        try Self.send(Self.head, on: socket)
        // A little past the limit, with the body going on: the answer comes now. (Before, it came
        // only once the whole body was in, read up to 8 MiB.)
        for _ in 0...(Self.limit / 0x4000) { try Self.send(Self.chunk, on: socket) }
        let answer = Self.read(on: socket, until: "}}")
        #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer.prefix(200))")
        // The same body as for a `Content-Length` over the limit.
        #expect(answer.contains(#""code":413"#) && answer.contains("REQUEST_TOO_LARGE"), "\(answer)")
        #expect(answer.contains("bytes so far of a chunked body; the limit is \(Self.limit) bytes"), "\(answer)")
        #expect(answer.contains("Connection: close"))
        // The rest of a body three times the limit is read and dropped, so the client's sends do
        // not meet a reset; once it half-closes, the server closes with nothing more to say.
        for _ in 0..<(2 * Self.limit / 0x4000) { try Self.send(Self.chunk, on: socket) }
        try Self.send(Array("0\r\n\r\n".utf8), on: socket)
        shutdown(socket, Int32(SHUT_WR))
        let rest = Self.read(on: socket, until: nil)
        #expect(rest.isEmpty, "more after the 413: \(rest.prefix(200))")
        #expect(Self.closedByServer(socket), "the connection stayed open after the 413")
        let vehicle = try RawHTTP.exchange(server.url, RawHTTP.request("GET", "/v1/providers/p/vehicles/big"))
        #expect(vehicle.status == 404, "the refused call created a vehicle: \(vehicle.body.prefix(200))")
    }

    @Test func aChunkedBodyWithoutEndIsReadNoFurtherThanTheDrainBound() throws {
        let server = try ServerProcess(arguments: ["--max-body", "\(Self.limit)"])
        defer { server.stop() }
        let socket = try RawHTTP.connect(server.url, timeout: 10)
        defer { close(socket) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        try Self.send(Self.head, on: socket)
        // The server reads the limit, then drains at most 16 MiB (lingering close) and closes:
        // with the kernel's buffers on both sides, sending stops well before 64 MiB.
        let most = 64 << 20
        var sent = 0
        var failure: Int32 = 0
        while sent < most {
            let count = Self.chunk.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count <= 0 {
                failure = errno
                break
            }
            sent += count
        }
        #expect(sent < most, "the server read a \(most >> 20) MiB body over a \(Self.limit >> 10) KiB limit")
        #expect(failure == EPIPE || failure == ECONNRESET,
                "sending stopped with \(String(cString: strerror(failure))), not because the server closed")
        let health = try RawHTTP.exchange(server.url, RawHTTP.request("GET", "/healthz"))
        #expect(health.status == 200)
    }

    static func send(_ bytes: [UInt8], on socket: Int32) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            sent += count
        }
    }

    /// Reads until `marker` arrives, or (nil) until the server closes or the socket's timeout passes.
    static func read(on socket: Int32, until marker: String?) -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let marker, String(decoding: received, as: UTF8.self).contains(marker) { break }
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Whether the server has closed its end (a read returns end of file, not a timeout).
    static func closedByServer(_ socket: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(socket, &byte, 1, 0) == 0
    }
}
