/// Appends little-endian integers, floats and length-prefixed strings to a byte array.
///
/// The binary encoding of journal records and snapshots; `ByteReader` reads it back.
struct ByteWriter {
    /// The bytes written so far.
    private(set) var bytes: [UInt8]

    init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    mutating func write(_ value: UInt8) {
        bytes.append(value)
    }

    mutating func write(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func write(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// A double as its IEEE 754 bit pattern, so it round-trips exactly.
    mutating func write(_ value: Double) {
        write(value.bitPattern)
    }

    /// A byte count (`UInt32`) followed by the bytes.
    mutating func writeBlob(_ blob: [UInt8]) {
        write(UInt32(blob.count))
        bytes.append(contentsOf: blob)
    }

    /// A string as a byte count (`UInt32`) followed by its UTF-8.
    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            write(UInt32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// Hands over the bytes written so far and starts empty again (to write a large file in pieces).
    mutating func take() -> [UInt8] {
        let taken = bytes
        bytes = []
        bytes.reserveCapacity(taken.count)
        return taken
    }

    /// Overwrites four bytes already written at `offset` (to fill in a length or checksum).
    mutating func patch(_ value: UInt32, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for (index, byte) in raw.enumerated() { bytes[offset + index] = byte }
        }
    }
}
