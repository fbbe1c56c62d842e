import Glibc

/// One request as the test server read it.
struct TestRequest {
    var method: String
    /// The path without the query.
    var path: String
    var headers: [(name: String, value: String)]
    var body: [UInt8]
}

/// Reads HTTP/1.1 requests (with `Content-Length` bodies) one after another from a connection.
struct TestRequestReader {
    let socket: Int32
    private var buffer: [UInt8] = []

    init(socket: Int32) { self.socket = socket }

    /// The next request, or nil when the peer closed or sent something that is not HTTP (e.g. a TLS hello).
    mutating func next() -> TestRequest? {
        var headEnd: Int?
        while headEnd == nil {
            if let first = buffer.first, !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) { return nil }
            headEnd = Self.endOfHead(in: buffer)
            if headEnd == nil, !readMore() { return nil }
        }
        guard let headEnd else { return nil }
        let headText = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = headText.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        let target = String(requestLine[1])
        let path = String(target.prefix { $0 != "?" })
        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            headers.append((name: String(line[..<colon]), value: String(value)))
        }
        let length = headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
        while buffer.count < length {
            guard readMore() else { return nil }
        }
        let body = Array(buffer[..<length])
        buffer.removeFirst(length)
        return TestRequest(method: String(requestLine[0]), path: path, headers: headers, body: body)
    }

    private mutating func readMore() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let received = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if received < 0, errno == EINTR { continue }
            guard received > 0 else { return false }
            buffer += chunk[..<received]
            return true
        }
    }

    private static func endOfHead(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }
}
