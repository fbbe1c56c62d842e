/// The CRC-32 of IEEE 802.3 (zlib's `crc32`, polynomial 0xEDB88320 reflected), table driven.
///
/// Frames journal records and seals snapshots so a torn or damaged write is detected on reading.
enum CRC32 {
    /// One entry per byte value: the CRC of that byte alone.
    private static let table: [UInt32] = (0..<256).map { byte in
        var crc = UInt32(byte)
        for _ in 0..<8 {
            crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
        }
        return crc
    }

    /// The checksum of `bytes[range]`.
    static func checksum(_ bytes: [UInt8], _ range: Range<Int>) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            checksum(UnsafeBufferPointer(rebasing: buffer[range]))
        }
    }

    /// The checksum of all of `bytes`, continuing `previous` (the checksum of the bytes before them).
    static func checksum(_ bytes: [UInt8], previous: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBufferPointer { checksum($0, previous: previous) }
    }

    /// The checksum of a buffer; pass the checksum of the bytes before it as `previous` to continue it.
    static func checksum(_ buffer: UnsafeBufferPointer<UInt8>, previous: UInt32 = 0) -> UInt32 {
        table.withUnsafeBufferPointer { table in
            var crc: UInt32 = previous ^ 0xFFFF_FFFF
            for byte in buffer {
                crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
            }
            return crc ^ 0xFFFF_FFFF
        }
    }
}
