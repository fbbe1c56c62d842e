import Foundation
import Testing
import FleetErrors
import FleetStore
import FileStore

/// Opening a file store after crashes and damage: torn last records are cut away, damage in the
/// middle is DATA_LOSS with the offset, and a compaction cut at any step loses and repeats nothing.
@Suite struct FileStoreRecoveryTests {
    typealias Samples = FileStoreSamples

    /// A journal of `commits` commits of varied shapes, with the journal size and the store's
    /// contents after each commit (index 0: before the first).
    struct History {
        var boundaries: [Int]
        var states: [[StoreRecord]]
        var files: [String: [UInt8]]
        var journal: [UInt8] { files["journal"] ?? [] }
    }

    static func makeHistory(_ scratch: FileStoreScratch, commits: Int) throws -> History {
        let store = try scratch.open()
        var boundaries = [try scratch.size(scratch.layout.journal)]
        var states: [[StoreRecord]] = [[]]
        for index in 0..<commits {
            switch index % 3 {
            case 0:
                try store.commit(.put(Samples.vehicle("v\(index)", Double(index), 1), expectedVersion: 0))
            case 1:
                try store.commit([
                    .put(Samples.trip("t\(index)", owner: "v\(index - 1)"), expectedVersion: 0),
                    .put(Samples.vehicle("v\(index - 1)", 2, 2, payload: String(repeating: "x", count: index * 10)), expectedVersion: 1),
                ])
            default:
                try store.commit(.delete(RecordKey(.trip, provider: Samples.provider, id: "t\(index - 1)"), expectedVersion: 1))
            }
            boundaries.append(try scratch.size(scratch.layout.journal))
            states.append(try Samples.everything(store))
        }
        try store.close()
        return History(boundaries: boundaries, states: states, files: try scratch.files())
    }

    static func journalError(_ scratch: FileStoreScratch) throws -> FleetError {
        try #require(throws: FleetError.self) { try scratch.open() }
    }

    // MARK: Torn last record

    @Test func aJournalCutAtAnyByteOfItsLastRecordOpensWithoutIt() throws {
        let scratch = FileStoreScratch()
        let history = try Self.makeHistory(scratch, commits: 5)
        let start = history.boundaries[4]
        let end = history.boundaries[5]
        #expect(end - start > 20)
        for cut in start...end {
            var files = history.files
            files["journal"] = Array(history.journal[0..<cut])
            try scratch.restore(files)
            let log = FileStoreLog()
            let store = try scratch.open(log: log)
            let expected = cut == end ? history.states[5] : history.states[4]
            #expect(try Samples.everything(store) == expected, "cut at \(cut)")
            #expect(store.recovery.truncatedBytes == (cut == end ? 0 : cut - start), "cut at \(cut)")
            #expect(store.recovery.truncatedAtOffset == (cut == start || cut == end ? nil : start), "cut at \(cut)")
            #expect(log.lines.contains { $0.contains("torn") } == (cut != start && cut != end), "cut at \(cut)")
            #expect(try scratch.size(scratch.layout.journal) == (cut == end ? end : start))

            // It takes new commits, which survive the next open.
            try store.commit(.put(Samples.vehicle("after-crash", 1, 1), expectedVersion: 0))
            try store.close()
            let reopened = try scratch.open()
            #expect(reopened.recovery.truncatedBytes == 0)
            #expect(try Samples.everything(reopened).count == expected.count + 1)
            try reopened.close()
        }
    }

    @Test func aLastRecordFailingItsChecksumIsCutAway() throws {
        let scratch = FileStoreScratch()
        let history = try Self.makeHistory(scratch, commits: 3)
        var files = history.files
        files["journal"]![history.boundaries[3] - 3] ^= 0x40
        try scratch.restore(files)
        let store = try scratch.open()
        #expect(try Samples.everything(store) == history.states[2])
        #expect(store.recovery.truncatedBytes == history.boundaries[3] - history.boundaries[2])
    }

    @Test(arguments: [UInt8(0), 0x5A])
    func aTailOfFillBytesAfterTheLastRecordIsCutAway(fill: UInt8) throws {
        let scratch = FileStoreScratch()
        let history = try Self.makeHistory(scratch, commits: 3)
        var files = history.files
        files["journal"]! += [UInt8](repeating: fill, count: 4096)
        try scratch.restore(files)
        let store = try scratch.open()
        #expect(try Samples.everything(store) == history.states[3])
        #expect(store.recovery.truncatedBytes == 4096)
        #expect(store.recovery.truncatedAtOffset == history.boundaries[3])
    }

    // MARK: Damage in the middle

    /// Every byte of the second of four records, damaged in turn: never skipped, always DATA_LOSS at its offset.
    @Test func damageAnywhereInAMiddleRecordIsDataLossAtItsOffset() throws {
        let scratch = FileStoreScratch()
        let history = try Self.makeHistory(scratch, commits: 4)
        let damaged = history.boundaries[1]..<history.boundaries[2]
        for offset in damaged {
            var files = history.files
            files["journal"]![offset] ^= 0xFF
            try scratch.restore(files)
            let error = try Self.journalError(scratch)
            #expect(error.code == .dataLoss, "byte \(offset)")
            #expect(error.cause == ErrorCause.journalCorrupt.id, "byte \(offset)")
            #expect(error.message.contains("\(scratch.layout.journal) at offset \(damaged.lowerBound):"), "byte \(offset): \(error.message)")
        }
    }

    @Test func aJournalWithoutItsHeaderIsDataLoss() throws {
        let scratch = FileStoreScratch()
        let history = try Self.makeHistory(scratch, commits: 2)
        var files = history.files
        files["journal"]![0] = UInt8(ascii: "X")
        try scratch.restore(files)
        let error = try Self.journalError(scratch)
        #expect(error.code == .dataLoss)
        #expect(error.message.contains("at offset 0"))
    }

    @Test func aMissingRecordIsAGapAndDataLoss() throws {
        let scratch = FileStoreScratch()
        let history = try Self.makeHistory(scratch, commits: 4)
        var files = history.files
        files["journal"]!.removeSubrange(history.boundaries[1]..<history.boundaries[2])
        try scratch.restore(files)
        let error = try Self.journalError(scratch)
        #expect(error.cause == ErrorCause.journalCorrupt.id)
        #expect(error.message.contains("sequence 3 but follows sequence 1"))
    }

    @Test func aRecordRepeatedIsDataLossNotAppliedTwice() throws {
        let scratch = FileStoreScratch()
        let history = try Self.makeHistory(scratch, commits: 3)
        var files = history.files
        files["journal"]! += history.journal[history.boundaries[2]..<history.boundaries[3]]
        try scratch.restore(files)
        let error = try Self.journalError(scratch)
        #expect(error.code == .dataLoss)
        #expect(error.message.contains("at offset \(history.boundaries[3])"))
    }

    @Test func aDamagedSnapshotIsDataLoss() throws {
        let scratch = FileStoreScratch()
        let store = try scratch.open()
        try store.commit(.put(Samples.vehicle("v1", 1, 1), expectedVersion: 0))
        try store.compact()
        try store.close()
        var snapshot = try scratch.read(scratch.layout.snapshot)
        snapshot[snapshot.count / 2] ^= 0x01
        try scratch.write(snapshot, to: scratch.layout.snapshot)
        let error = try Self.journalError(scratch)
        #expect(error.code == .dataLoss)
        #expect(error.cause == ErrorCause.snapshotCorrupt.id)
        #expect(error.message.contains(scratch.layout.snapshot))
    }

    @Test func aSnapshotWithoutItsJournalIsDataLoss() throws {
        let scratch = FileStoreScratch()
        let store = try scratch.open()
        try store.commit(.put(Samples.vehicle("v1", 1, 1), expectedVersion: 0))
        try store.compact()
        try store.close()
        try FileManager.default.removeItem(atPath: scratch.layout.journal)
        let error = try Self.journalError(scratch)
        #expect(error.cause == ErrorCause.journalCorrupt.id)
        #expect(error.message.contains("missing"))
    }

    @Test func aJournalStartingPastTheSnapshotIsDataLoss() throws {
        let scratch = FileStoreScratch()
        let store = try scratch.open()
        try store.commit(.put(Samples.vehicle("v1", 1, 1), expectedVersion: 0))
        try store.compact()
        let header = try scratch.size(scratch.layout.journal)
        try store.commit(.put(Samples.vehicle("v2", 1, 1), expectedVersion: 0))
        let afterFirst = try scratch.size(scratch.layout.journal)
        try store.commit(.put(Samples.vehicle("v3", 1, 1), expectedVersion: 0))
        try store.close()
        var journal = try scratch.read(scratch.layout.journal)
        journal.removeSubrange(header..<afterFirst)
        try scratch.write(journal, to: scratch.layout.journal)
        let error = try Self.journalError(scratch)
        #expect(error.code == .dataLoss)
        #expect(error.message.contains("starts at sequence 3 but the snapshot ends at 1"))
    }

    /// The frame is `[length][CRC-32 of payload][payload]` with zlib's CRC-32, so other tools can check a journal.
    @Test func journalFramesCarryTheStandardCRC32OfTheirPayload() throws {
        #expect(Self.standardCRC32(Array("123456789".utf8)) == 0xCBF4_3926)
        let scratch = FileStoreScratch()
        let history = try Self.makeHistory(scratch, commits: 2)
        let journal = history.journal
        #expect(Array(journal[0..<8]) == Array("FLEETJNL".utf8))
        var offset = history.boundaries[0]
        for end in history.boundaries.dropFirst() {
            let length = Self.uint32(journal, offset)
            #expect(offset + 8 + Int(length) == end)
            #expect(Self.uint32(journal, offset + 4) == Self.standardCRC32(Array(journal[offset + 8..<end])))
            offset = end
        }
    }

    // MARK: Compaction

    @Test func compactionByRecordCountKeepsEverythingAcrossReopens() throws {
        let scratch = FileStoreScratch()
        let policy = CompactionPolicy(maxJournalRecords: 10)
        let store = try scratch.open(compaction: policy)
        for index in 0..<35 {
            try store.commit(.put(Samples.vehicle("v\(index % 12)", Double(index), 0), expectedVersion: UInt64(index / 12)))
        }
        #expect(store.statistics.compactions == 3)
        let before = try Samples.everything(store)
        try store.close()
        let reopened = try scratch.open(compaction: policy)
        #expect(reopened.recovery.snapshotSequence == 30)
        #expect(reopened.recovery.replayedCommits == 5)
        #expect(try Samples.everything(reopened) == before)
    }

    @Test func compactionByJournalSizeLeavesAJournalOfJustItsHeader() throws {
        let scratch = FileStoreScratch()
        let store = try scratch.open(compaction: CompactionPolicy(maxJournalBytes: 4096))
        var journalSizes: [Int] = []
        for index in 0..<40 {
            try store.commit(.put(Samples.vehicle("v\(index)", 0, 0, payload: String(repeating: "p", count: 500)), expectedVersion: 0))
            journalSizes.append(try scratch.size(scratch.layout.journal))
        }
        #expect(journalSizes.allSatisfy { $0 < 4096 })
        #expect(store.statistics.compactions >= 4)
        try store.compact()
        #expect(try scratch.size(scratch.layout.journal) == 12)
        try store.close()
        let reopened = try scratch.open()
        #expect(try reopened.list(.vehicle, provider: Samples.provider, afterID: nil, limit: .max).count == 40)
        #expect(!FileManager.default.fileExists(atPath: scratch.layout.snapshotTemporary))
        #expect(!FileManager.default.fileExists(atPath: scratch.layout.journalTemporary))
    }

    /// Where a crash can stop a compaction, as the files it leaves show.
    enum CompactionCrash: String, CaseIterable, CustomTestStringConvertible {
        case whileWritingTheSnapshot
        case beforeRenamingTheSnapshot
        case afterRenamingTheSnapshot
        case whileWritingTheNewJournal
        case beforeRenamingTheNewJournal
        case afterRenamingTheNewJournal

        var testDescription: String { rawValue }
    }

    @Test(arguments: CompactionCrash.allCases)
    func aCompactionCutAtAnyStepLosesNothingAndRepeatsNothing(crash: CompactionCrash) throws {
        let scratch = FileStoreScratch()
        // An older snapshot and a journal after it: the state a compaction starts from.
        let store = try scratch.open()
        for index in 0..<6 {
            try store.commit([
                .put(Samples.vehicle("v\(index)", Double(index), 0), expectedVersion: 0),
                .put(Samples.trip("t\(index)", owner: "v\(index)"), expectedVersion: 0),
            ])
        }
        try store.compact()
        for index in 0..<6 {
            if index % 2 == 0 {
                try store.commit(.delete(RecordKey(.trip, provider: Samples.provider, id: "t\(index)"), expectedVersion: 1))
            } else {
                try store.commit(.put(Samples.vehicle("v\(index)", -1, -1), expectedVersion: 1))
            }
        }
        let expected = try Samples.everything(store)
        try store.close()
        let before = try scratch.files()

        let compacting = try scratch.open()
        try compacting.compact()
        try compacting.close()
        let after = try scratch.files()
        let newSnapshot = try #require(after["snapshot"])
        let newJournal = try #require(after["journal"])
        #expect(newSnapshot != before["snapshot"])

        var files = before
        switch crash {
        case .whileWritingTheSnapshot:
            files["snapshot.tmp"] = Array(newSnapshot[0..<newSnapshot.count / 2])
        case .beforeRenamingTheSnapshot:
            files["snapshot.tmp"] = newSnapshot
        case .afterRenamingTheSnapshot:
            files["snapshot"] = newSnapshot
        case .whileWritingTheNewJournal:
            files["snapshot"] = newSnapshot
            files["journal.tmp"] = Array(newJournal[0..<5])
        case .beforeRenamingTheNewJournal:
            files["snapshot"] = newSnapshot
            files["journal.tmp"] = newJournal
        case .afterRenamingTheNewJournal:
            files = after
        }
        try scratch.restore(files)

        let recovered = try scratch.open()
        #expect(try Samples.everything(recovered) == expected)
        let leftovers = files.keys.filter { $0.hasSuffix(".tmp") }.count
        #expect(recovered.recovery.removedTemporaryFiles.count == leftovers)
        let snapshotInPlace = crash != .whileWritingTheSnapshot && crash != .beforeRenamingTheSnapshot
        let journalReplaced = crash == .afterRenamingTheNewJournal
        #expect(recovered.recovery.snapshotSequence == (snapshotInPlace ? 12 : 6))
        #expect(recovered.recovery.skippedCommits == (snapshotInPlace && !journalReplaced ? 6 : 0))
        #expect(recovered.recovery.completedCompaction == (snapshotInPlace && !journalReplaced))
        #expect(recovered.recovery.replayedCommits == (snapshotInPlace ? 0 : 6))

        // New commits land after the recovered state and nothing is applied twice on the next open.
        try recovered.commit(.put(Samples.vehicle("v1", 5, 5), expectedVersion: 2))
        try recovered.commit(.put(Samples.vehicle("v99", 5, 5), expectedVersion: 0))
        let final = try Samples.everything(recovered)
        try recovered.close()
        let reopened = try scratch.open()
        #expect(try Samples.everything(reopened) == final)
        #expect(reopened.recovery.removedTemporaryFiles.isEmpty)
        #expect(reopened.recovery.skippedCommits == 0)
        #expect(try reopened.get(RecordKey(.vehicle, provider: Samples.provider, id: "v1"))?.version == 3)
    }

    // MARK: Helpers

    static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
    }

    /// CRC-32 (IEEE 802.3, as zlib), bit by bit: an independent check of the store's table-driven one.
    static func standardCRC32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
