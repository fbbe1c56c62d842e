import FleetErrors
import FleetLearning
import FleetStore

/// The fleet's learned travel times and waits (``RoadTimes``) kept in the store, so every node that shares the store
/// reads the same tables: one record per provider and tile of ``tilePieces`` × ``tilePieces`` road pieces (a square
/// kilometre), holding that tile's rows. Adding rows adds their sums to the stored ones, tile by tile, in one commit
/// checked against the versions read, so two nodes adding at once both count. Every change also writes the
/// provider's revision record in its commit (``revision(provider:)``), so a node learns with one read whether there
/// is anything new to read. The records hold no vehicle or trip.
public struct LearnedTimesStorage: Sendable {
    /// The store.
    public let store: any Store
    /// Pieces per side of a tile.
    public static let tilePieces: Int32 = 20
    /// Attempts at a commit another writer keeps beating.
    public var maximumAttempts = 16

    /// Storage in `store`.
    public init(store: any Store) {
        self.store = store
    }

    /// The ID of the record whose version is the tables' revision.
    static let revisionID = "revision"

    /// The revision of what is learned for `provider`: moves with every ``add(_:provider:with:)`` of rows and every
    /// ``clear(provider:)`` that removed something, in the same commit; 0 while nothing was ever stored (or only by
    /// a version that kept no revision, whose tables then stay as they are until the next change). Read it before
    /// ``load(provider:)``: tables loaded after it are at least that revision.
    public func revision(provider: String) throws -> UInt64 {
        try store.get(revisionKey(provider))?.version ?? 0
    }

    private func revisionKey(_ provider: String) -> RecordKey {
        RecordKey(.roadTimes, provider: provider, id: Self.revisionID)
    }

    /// The write that moves `provider`'s revision, for a commit that changes its tables.
    private func revisionWrite(_ provider: String) throws -> StoreWrite {
        let key = revisionKey(provider)
        return .put(StoreRecord(key: key, version: 0, payload: []), expectedVersion: try store.get(key)?.version ?? 0)
    }

    /// Everything learned for `provider`.
    public func load(provider: String) throws -> RoadTimes {
        var times = RoadTimes()
        var after: String? = nil
        while true {
            let page = try store.list(.roadTimes, provider: provider, afterID: after, limit: 500)
            for record in page where !Self.holdsNoRows(record.key.id) { times.add(try Self.decode(record)) }
            guard page.count == 500, let last = page.last else { return times }
            after = last.key.id
        }
    }

    /// Whether the record `id` among a provider's learned times is one of the two that hold no rows: the revision,
    /// and the mark of the history learned (``HistoryLearning``).
    private static func holdsNoRows(_ id: String) -> Bool {
        id == revisionID || id == HistoryLearning.markID
    }

    /// Adds `rows` to what is stored for `provider`: each tile read, summed and written back in one commit, again
    /// from the start when another writer changed a tile meanwhile. `extra` writes go into the same commit (the mark of
    /// what the history learning learned); with them a conflict is not retried but thrown (`StoreConflict`), since
    /// it may be theirs. Rows move the revision; `extra` alone does not.
    public func add(_ rows: [PieceObservation], provider: String, with extra: [StoreWrite] = []) throws {
        guard !rows.isEmpty || !extra.isEmpty else { return }
        var byTile: [String: [PieceObservation]] = [:]
        for row in rows { byTile[Self.tileID(of: row.piece), default: []].append(row) }
        var attempt = 0
        while true {
            attempt += 1
            var writes: [StoreWrite] = []
            for (id, tileRows) in byTile.sorted(by: { $0.key < $1.key }) {
                let key = RecordKey(.roadTimes, provider: provider, id: id)
                let existing = try store.get(key)
                var tile = RoadTimes()
                if let existing { tile.add(try Self.decode(existing)) }
                tile.add(tileRows)
                writes.append(.put(StoreRecord(key: key, version: 0, payload: Self.encode(tile.rows)),
                                   expectedVersion: existing?.version ?? 0))
            }
            if !rows.isEmpty { writes.append(try revisionWrite(provider)) }
            do {
                _ = try store.commit(writes + extra)
                return
            } catch is StoreConflict where extra.isEmpty && attempt < maximumAttempts {
                continue
            }
        }
    }

    /// Removes everything learned for `provider`, and the mark of the history learned (so the next learning run
    /// learns all the history kept), moving the revision; answers how many tiles were removed.
    @discardableResult
    public func clear(provider: String) throws -> Int {
        var removed = 0
        while true {
            let page = try store.list(.roadTimes, provider: provider, afterID: nil, limit: 500).filter { $0.key.id != Self.revisionID }
            guard !page.isEmpty else { return removed }
            do {
                _ = try store.commit(page.map { .delete($0.key, expectedVersion: $0.version) } + [try revisionWrite(provider)])
                removed += page.count { !Self.holdsNoRows($0.key.id) }
            } catch is StoreConflict {
                continue
            }
        }
    }

    /// The tile a piece is kept in: `east:north` of its tile.
    static func tileID(of piece: RoadPiece) -> String {
        "\(floorDivide(piece.east, tilePieces)):\(floorDivide(piece.north, tilePieces))"
    }

    private static func floorDivide(_ a: Int32, _ b: Int32) -> Int32 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    /// Format tag of a tile's payload.
    static let formatTag: [UInt8] = Array("RT1".utf8)

    /// A tile's rows as bytes: the format tag, then per row the piece (east and north as 32-bit integers, heading),
    /// the slot (16 bits) and the five sums as 64-bit floats, all little-endian.
    static func encode(_ rows: [PieceObservation]) -> [UInt8] {
        var bytes = formatTag
        bytes.reserveCapacity(formatTag.count + rows.count * 51)
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        for row in rows {
            append(row.piece.east)
            append(row.piece.north)
            bytes.append(row.piece.heading)
            append(UInt16(row.slot.index))
            for value in [row.tally.seconds, row.tally.meters, row.tally.passes, row.tally.waits, row.tally.waitSeconds] {
                append(value.bitPattern)
            }
        }
        return bytes
    }

    /// The rows of a tile record; a payload that is not a tile is a DATA_LOSS error naming the record.
    static func decode(_ record: StoreRecord) throws -> [PieceObservation] {
        let bytes = record.payload
        let rowSize = 4 + 4 + 1 + 2 + 5 * 8
        guard bytes.count >= formatTag.count, Array(bytes[0..<formatTag.count]) == formatTag,
              (bytes.count - formatTag.count) % rowSize == 0 else {
            throw FleetError(.corruptLearnedTimes, detail: "record \(record.key) is not a tile of learned times")
        }
        func read<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> T {
            var value: T = 0
            for index in 0..<MemoryLayout<T>.size { value |= T(bytes[offset + index]) << (8 * index) }
            return value
        }
        var rows: [PieceObservation] = []
        var offset = formatTag.count
        while offset < bytes.count {
            let piece = RoadPiece(east: read(Int32.self, at: offset), north: read(Int32.self, at: offset + 4),
                                  heading: bytes[offset + 8])
            let slot = Int(read(UInt16.self, at: offset + 9))
            let sums = (0..<5).map { Double(bitPattern: read(UInt64.self, at: offset + 11 + 8 * $0)) }
            guard Int(piece.heading) < RoadPiece.headings, slot < WeekSlot.count, sums.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
                throw FleetError(.corruptLearnedTimes, detail: "record \(record.key) holds a row out of range at byte \(offset)")
            }
            rows.append(PieceObservation(piece: piece, slot: WeekSlot(index: slot),
                                         tally: PieceTally(seconds: sums[0], meters: sums[1], passes: sums[2], waits: sums[3], waitSeconds: sums[4])))
            offset += rowSize
        }
        return rows
    }
}
