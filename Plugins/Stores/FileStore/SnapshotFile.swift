#if canImport(Glibc)
import Glibc
#endif
import FileIO
import FleetErrors

/// The snapshot file: every record as of one journal sequence.
///
/// ```
/// "FLEETSNP", format version (UInt32 LE) = 2, journal sequence (UInt64), record count (UInt64),
/// records (RecordCoding), history point count (UInt64) and the points in time order (RecordCoding;
/// a snapshot written before the history ends after the records), CRC-32 of everything before it
/// (UInt32 LE)
/// ```
///
/// Format 1 is read too: its history points have no kind byte (rides vehicles' points, written
/// before delivery vehicles had a history).
///
/// Written whole to `snapshot.tmp`, synced, then renamed over `snapshot` and the directory synced:
/// `snapshot` is always either the old complete snapshot or the new complete one.
enum SnapshotFile {
    static let magic: [UInt8] = Array("FLEETSNP".utf8)
    static let formatVersion: UInt32 = 2
    /// The format before history points had a kind.
    static let formatWithoutHistoryKinds: UInt32 = 1
    /// Magic, format, sequence, count.
    private static let headerSize = 28
    /// Bytes buffered before each write while streaming a snapshot out.
    private static let chunkSize = 1 << 20

    /// Writes `table` as the snapshot at `sequence`, durably, replacing any previous one.
    static func write(_ table: RecordTable, sequence: UInt64, layout: FileStoreLayout) throws {
        let file = try PosixFile.open(layout.snapshotTemporary, O_WRONLY | O_CREAT | O_TRUNC)
        do {
            var writer = ByteWriter(capacity: chunkSize + 4096)
            for byte in magic { writer.write(byte) }
            writer.write(formatVersion)
            writer.write(sequence)
            writer.write(UInt64(table.count))
            var checksum: UInt32 = 0
            var offset = 0
            func flush() throws {
                let chunk = writer.take()
                checksum = CRC32.checksum(chunk, previous: checksum)
                try file.write(chunk, at: offset)
                offset += chunk.count
            }
            try table.forEach { record in
                RecordCoding.write(record, to: &writer)
                if writer.bytes.count >= chunkSize { try flush() }
            }
            writer.write(UInt64(table.history.points.count))
            for point in table.history.points {
                RecordCoding.write(point, to: &writer)
                if writer.bytes.count >= chunkSize { try flush() }
            }
            try flush()
            writer.write(checksum)
            try flush()
            try file.sync()
            file.close()
        } catch {
            file.close()
            _ = try? FileSystem.remove(layout.snapshotTemporary)
            throw error
        }
        try FileSystem.rename(layout.snapshotTemporary, to: layout.snapshot)
        try FileSystem.syncDirectory(layout.directory)
    }

    /// Reads the snapshot into a table; throws `snapshotCorrupt` when it fails its checksum or does not decode.
    static func read(layout: FileStoreLayout) throws -> (table: RecordTable, sequence: UInt64) {
        let path = layout.snapshot
        let bytes = try PosixFile.open(path, O_RDONLY).readAll()
        func corrupt(_ problem: String) -> FleetError {
            FleetError(.snapshotCorrupt, detail: "\(path): \(problem)")
        }
        guard bytes.count >= headerSize + 4, Array(bytes[0..<magic.count]) == magic else {
            throw corrupt("the file does not start with a file-store snapshot header")
        }
        let body = 0..<bytes.count - 4
        guard CRC32.checksum(bytes, body) == ByteReader.uint32(bytes, at: body.upperBound) else {
            throw corrupt("the file fails its checksum (\(bytes.count) bytes)")
        }
        var reader = ByteReader(bytes, range: magic.count..<body.upperBound)
        var table = RecordTable()
        do {
            let format = try reader.readUInt32()
            guard format == formatVersion || format == formatWithoutHistoryKinds else {
                throw corrupt("format \(format) is not a format this version reads (\(formatWithoutHistoryKinds) or \(formatVersion))")
            }
            let sequence = try reader.readUInt64()
            let count = try reader.readUInt64()
            for _ in 0..<count {
                try table.load(try RecordCoding.readRecord(from: &reader))
            }
            if !reader.isAtEnd {
                let points = try reader.readUInt64()
                for _ in 0..<points { table.load(try RecordCoding.readHistoryPoint(from: &reader, hasKind: format != formatWithoutHistoryKinds)) }
            }
            guard reader.isAtEnd else { throw corrupt("bytes are left after the last of \(count) records") }
            return (table, sequence)
        } catch let error as FleetError {
            throw error
        } catch let overrun as ByteReader.Overrun {
            throw corrupt("a record runs past the end of the file (at offset \(overrun.offset))")
        } catch let unknown as RecordCoding.UnknownTag {
            throw corrupt("unknown tag \(unknown.tag) at offset \(unknown.offset)")
        } catch let mismatch as RecordTable.Mismatch {
            throw corrupt(mismatch.message)
        }
    }
}
