import FleetErrors

/// Reads a journal file's bytes at open: hands each intact record to the caller in order, and tells
/// a torn tail (a crash cut the last append; it was never acknowledged) from damage in the middle.
///
/// The rule: a bad frame is a torn tail when no intact record follows it anywhere after it. When one
/// does, acknowledged commits would be lost by skipping it, so the scan throws DATA_LOSS
/// (`journalCorrupt`) with the offset instead.
struct JournalScanner {
    /// What a scan found besides the records.
    struct Outcome: Sendable, Hashable {
        /// The end of the last intact record: where the next append goes.
        var validEnd: Int
        /// How many bytes after `validEnd` belong to a torn tail (0 when the file ends cleanly).
        var tornBytes: Int
        /// The sequence of the last intact record, nil when there is none.
        var lastSequence: UInt64?
        /// How many intact records were read.
        var recordCount: Int
    }

    /// The journal's path, for messages.
    let path: String
    /// The whole file.
    let bytes: [UInt8]

    /// Calls `visit` with each intact record and its offset, in file order.
    func scan(_ visit: (JournalRecord, Int) throws -> Void) throws -> Outcome {
        guard JournalFormat.hasValidHeader(bytes) else {
            throw corrupt(at: 0, "the file does not start with a file-store journal header (format \(JournalFormat.formatVersion))")
        }
        var offset = JournalFormat.headerSize
        var lastSequence: UInt64?
        var count = 0
        while offset < bytes.count {
            switch inspectFrame(at: offset) {
            case .intact(let payload):
                let record: JournalRecord
                do {
                    record = try JournalFormat.decodePayload(bytes, range: payload)
                } catch let error as JournalFormat.Undecodable {
                    throw corrupt(at: offset, "the record passes its checksum but does not decode: \(error.reason)")
                }
                if let last = lastSequence, record.sequence != last &+ 1 {
                    throw corrupt(at: offset, "the record has sequence \(record.sequence) but follows sequence \(last)")
                }
                try visit(record, offset)
                lastSequence = record.sequence
                count += 1
                offset = payload.upperBound
            case .damaged(let reason):
                if let intact = firstIntactFrame(after: offset, sequenceAbove: lastSequence ?? 0) {
                    throw corrupt(at: offset, "the record \(reason), yet an intact record follows at offset \(intact)")
                }
                return Outcome(validEnd: offset, tornBytes: bytes.count - offset, lastSequence: lastSequence, recordCount: count)
            }
        }
        return Outcome(validEnd: offset, tornBytes: 0, lastSequence: lastSequence, recordCount: count)
    }

    private enum Frame {
        case intact(payload: Range<Int>)
        case damaged(String)
    }

    private func inspectFrame(at offset: Int) -> Frame {
        let remaining = bytes.count - offset
        guard remaining >= JournalFormat.frameHeaderSize else { return .damaged("is cut inside its header") }
        let length = Int(ByteReader.uint32(bytes, at: offset))
        guard length >= JournalFormat.minimumPayloadSize, length <= JournalFormat.maximumPayloadSize else {
            return .damaged("has an impossible length \(length)")
        }
        guard length <= remaining - JournalFormat.frameHeaderSize else {
            return .damaged("is cut short (\(remaining - JournalFormat.frameHeaderSize) of \(length) payload bytes)")
        }
        let payload = offset + JournalFormat.frameHeaderSize..<offset + JournalFormat.frameHeaderSize + length
        guard CRC32.checksum(bytes, payload) == ByteReader.uint32(bytes, at: offset + 4) else {
            return .damaged("fails its checksum")
        }
        return .intact(payload: payload)
    }

    /// The offset of the first frame after `offset` that is intact and continues the sequence, if any.
    /// Candidates are filtered by length and sequence before their checksum is computed.
    private func firstIntactFrame(after offset: Int, sequenceAbove floor: UInt64) -> Int? {
        var candidate = offset + 1
        let last = bytes.count - JournalFormat.frameHeaderSize - JournalFormat.minimumPayloadSize
        while candidate <= last {
            defer { candidate += 1 }
            let length = Int(ByteReader.uint32(bytes, at: candidate))
            guard length >= JournalFormat.minimumPayloadSize,
                  length <= bytes.count - candidate - JournalFormat.frameHeaderSize,
                  let sequence = JournalFormat.peekSequence(bytes, frameAt: candidate),
                  sequence > floor, sequence - floor <= 1 << 32
            else { continue }
            if case .intact = inspectFrame(at: candidate) { return candidate }
        }
        return nil
    }

    private func corrupt(at offset: Int, _ problem: String) -> FleetError {
        FleetError(.journalCorrupt, detail: "\(path) at offset \(offset): \(problem)")
    }
}
