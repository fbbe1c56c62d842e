import COpenSSL

/// An OpenSSL memory BIO: PEM text in, PEM text out.
enum MemoryBIO {
    /// Runs `body` with a read-only BIO over `text`'s UTF-8 bytes (valid only during the call).
    static func reading<Result>(_ text: String, _ body: (OpaquePointer) throws -> Result) throws -> Result {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else {
                throw OpenSSLFailure("could not create a memory BIO: \(OpenSSLErrorQueue.drain())")
            }
            defer { BIO_free(bio) }
            return try body(bio)
        }
    }

    /// Runs `body` with a writable BIO and returns what it wrote, as text.
    static func writing(_ body: (OpaquePointer) throws -> Void) throws -> String {
        guard let bio = BIO_new(BIO_s_mem()) else {
            throw OpenSSLFailure("could not create a memory BIO: \(OpenSSLErrorQueue.drain())")
        }
        defer { BIO_free(bio) }
        try body(bio)
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = BIO_read(bio, &chunk, Int32(chunk.count))
            if count <= 0 { break }
            output.append(contentsOf: chunk[0..<Int(count)])
        }
        return String(decoding: output, as: UTF8.self)
    }
}

/// A failed OpenSSL call, described for a person (wrapped into a `FleetError` by the caller).
struct OpenSSLFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
