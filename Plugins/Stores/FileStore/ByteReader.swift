/// Reads what `ByteWriter` wrote, from a range of a byte array, refusing to read past its end.
struct ByteReader {
    /// Reading went past the end of the range: the bytes are cut or not what was written.
    struct Overrun: Error, Sendable {
        /// Where the read that failed started.
        var offset: Int
    }

    private let bytes: [UInt8]
    private let end: Int
    /// The position of the next read, an index into the whole array.
    private(set) var offset: Int

    init(_ bytes: [UInt8], range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count)
        self.bytes = bytes
        self.offset = range.lowerBound
        self.end = range.upperBound
    }

    /// Whether every byte of the range has been read.
    var isAtEnd: Bool { offset == end }

    mutating func readUInt8() throws -> UInt8 {
        try need(1)
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func readUInt32() throws -> UInt32 {
        try need(4)
        defer { offset += 4 }
        return Self.uint32(bytes, at: offset)
    }

    mutating func readUInt64() throws -> UInt64 {
        try need(8)
        var value: UInt64 = 0
        for index in (0..<8).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
        offset += 8
        return value
    }

    mutating func readDouble() throws -> Double {
        Double(bitPattern: try readUInt64())
    }

    /// A byte count (`UInt32`) followed by the bytes.
    mutating func readBlob() throws -> [UInt8] {
        let count = Int(try readUInt32())
        try need(count)
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// A byte count (`UInt32`) followed by UTF-8.
    mutating func readString() throws -> String {
        let count = Int(try readUInt32())
        try need(count)
        defer { offset += count }
        return String(decoding: bytes[offset..<offset + count], as: UTF8.self)
    }

    /// The little-endian `UInt32` at `offset` of `bytes`; the caller checks the bounds.
    static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    private func need(_ count: Int) throws {
        guard count >= 0, end - offset >= count else { throw Overrun(offset: offset) }
    }
}
