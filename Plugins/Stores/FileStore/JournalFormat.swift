/// The bytes of the journal file.
///
/// ```
/// header  "FLEETJNL" then format version (UInt32 LE) = 1                      12 bytes
/// frame   payload length (UInt32 LE), CRC-32 of payload (UInt32 LE), payload   one per commit
/// payload sequence (UInt64), entry count (UInt32), entries:
///         1 = put:    record (RecordCoding, with its new version)
///         2 = delete: key, version it was at (UInt64)
///         3 = history point without its kind, of a rides vehicle (read only: journals written
///             before delivery vehicles had a history)
///         4 = history pruned: before (Int64 as UInt64), count (UInt64)
///         5 = history point (RecordCoding, with its kind)
/// ```
///
/// Why a binary frame and not a JSON line with a checksum: payloads are opaque bytes (JSON would
/// need base64, a third larger and slower), and the length prefix tells exactly where a record
/// ends, so a frame cut by a crash is recognised by its length alone, before the checksum.
enum JournalFormat {
    static let magic: [UInt8] = Array("FLEETJNL".utf8)
    static let formatVersion: UInt32 = 1
    /// Magic plus format version.
    static let headerSize = 12
    /// Payload length plus checksum.
    static let frameHeaderSize = 8
    /// A payload holds at least a sequence and an entry count.
    static let minimumPayloadSize = 12
    /// The largest payload a commit may write (the length field could hold 4 GiB; a commit this
    /// large is a mistake, and refusing it keeps the bound a recovering reader can trust).
    static let maximumPayloadSize = 1 << 30

    private static let putTag: UInt8 = 1
    private static let deleteTag: UInt8 = 2
    private static let historyWithoutKindTag: UInt8 = 3
    private static let historyPrunedTag: UInt8 = 4
    private static let historyTag: UInt8 = 5

    /// A payload that passed its checksum but does not decode: written by another program or version.
    struct Undecodable: Error, Sendable {
        var reason: String
    }

    static var header: [UInt8] {
        var writer = ByteWriter(capacity: headerSize)
        for byte in magic { writer.write(byte) }
        writer.write(formatVersion)
        return writer.bytes
    }

    /// Whether `bytes` start with a header this version reads.
    static func hasValidHeader(_ bytes: [UInt8]) -> Bool {
        bytes.count >= headerSize && Array(bytes[0..<headerSize]) == header
    }

    /// The framed bytes of one record, ready to append.
    static func frame(_ record: JournalRecord) -> [UInt8] {
        var writer = ByteWriter(capacity: record.entries.reduce(frameHeaderSize + minimumPayloadSize) { size, entry in
            switch entry {
            case .put(let stored): size + 1 + RecordCoding.estimatedSize(stored)
            case .delete(let key, _): size + 64 + key.provider.utf8.count + key.id.utf8.count
            case .history(let point): size + 1 + RecordCoding.estimatedSize(point)
            case .historyPruned: size + 17
            }
        })
        writer.write(UInt32(0))  // length, patched below
        writer.write(UInt32(0))  // checksum, patched below
        writer.write(record.sequence)
        writer.write(UInt32(record.entries.count))
        for entry in record.entries {
            switch entry {
            case .put(let stored):
                writer.write(putTag)
                RecordCoding.write(stored, to: &writer)
            case .delete(let key, let version):
                writer.write(deleteTag)
                RecordCoding.write(key, to: &writer)
                writer.write(version)
            case .history(let point):
                writer.write(historyTag)
                RecordCoding.write(point, to: &writer)
            case .historyPruned(let before, let count):
                writer.write(historyPrunedTag)
                writer.write(UInt64(bitPattern: before))
                writer.write(UInt64(count))
            }
        }
        let size = writer.bytes.count
        writer.patch(UInt32(truncatingIfNeeded: size - frameHeaderSize), at: 0)
        writer.patch(CRC32.checksum(writer.bytes, frameHeaderSize..<size), at: 4)
        return writer.bytes
    }

    /// Decodes a payload whose checksum matched.
    static func decodePayload(_ bytes: [UInt8], range: Range<Int>) throws -> JournalRecord {
        var reader = ByteReader(bytes, range: range)
        do {
            let sequence = try reader.readUInt64()
            let count = Int(try reader.readUInt32())
            var entries: [JournalEntry] = []
            entries.reserveCapacity(min(count, range.count / 8))
            for _ in 0..<count {
                let at = reader.offset
                switch try reader.readUInt8() {
                case putTag:
                    entries.append(.put(try RecordCoding.readRecord(from: &reader)))
                case deleteTag:
                    let key = try RecordCoding.readKey(from: &reader)
                    entries.append(.delete(key, version: try reader.readUInt64()))
                case historyTag:
                    entries.append(.history(try RecordCoding.readHistoryPoint(from: &reader, hasKind: true)))
                case historyWithoutKindTag:
                    entries.append(.history(try RecordCoding.readHistoryPoint(from: &reader, hasKind: false)))
                case historyPrunedTag:
                    let before = Int64(bitPattern: try reader.readUInt64())
                    entries.append(.historyPruned(before: before, count: Int(clamping: try reader.readUInt64())))
                case let tag:
                    throw Undecodable(reason: "unknown entry tag \(tag) at offset \(at)")
                }
            }
            guard reader.isAtEnd else { throw Undecodable(reason: "\(range.upperBound - reader.offset) bytes left after the last entry") }
            return JournalRecord(sequence: sequence, entries: entries)
        } catch let overrun as ByteReader.Overrun {
            throw Undecodable(reason: "an entry runs past the end of the record (at offset \(overrun.offset))")
        } catch let unknown as RecordCoding.UnknownTag {
            throw Undecodable(reason: "unknown tag \(unknown.tag) at offset \(unknown.offset)")
        }
    }

    /// The sequence number stored at the start of the payload of a frame at `offset`, when the bytes are there.
    static func peekSequence(_ bytes: [UInt8], frameAt offset: Int) -> UInt64? {
        let start = offset + frameHeaderSize
        guard start + 8 <= bytes.count else { return nil }
        var reader = ByteReader(bytes, range: start..<start + 8)
        return try? reader.readUInt64()
    }
}
