import Foundation
import Testing
import FleetErrors
import FleetStore
import FleetTestSupport
import FileStore
import SQLiteStore
import FleetRandom

/// Kills `store-crasher` with SIGKILL at random points while it commits, then reopens the store in
/// this process and checks that every acknowledged write is there, that the commit cut by the kill
/// is there whole or not at all, that the indexes agree with the records, and that the store takes
/// new writes.
///
/// Reproducible: iteration `i` uses seed `FLEET_CRASH_SEED + i` (default base 20251123), which fixes
/// the workload, the compaction interval and the commit the kill aims at (the exact instant the
/// signal lands still varies); every failure message names the seed.
@Suite(.serialized) struct CrashTests {
    static let iterations = 30
    static let commitsPerRun = 150
    static let provider = "crash"

    /// The persistent stores under test. Add a store with one line (and its scheme in store-crasher's registry).
    static let targets: [CrashTarget] = [
        CrashTarget(name: "file", url: { "file:\($0)" }, open: { try FileStore(directory: $0, log: { _ in }) },
                    singleProcess: true),
        CrashTarget(name: "sqlite", url: { "sqlite:\($0)" }, open: { try StoreRegistry([SQLiteStore.scheme]).open("sqlite:\($0)") },
                    singleProcess: false),
    ]

    @Test(arguments: targets, 0..<iterations)
    func aKilledWriterLosesNoAcknowledgedWrite(target: CrashTarget, iteration: Int) throws {
        let base = ProcessInfo.processInfo.environment["FLEET_CRASH_SEED"].flatMap(UInt64.init) ?? 20_251_123
        let seed = base + UInt64(iteration)
        let crasher = try #require(locateStoreCrasher(), "store-crasher was not built next to the test bundle (swift build builds it)")
        var random = SeededRandom(seed: seed)
        let scratch = FileStoreScratch()
        let path = scratch.storePath
        // One seed in three runs the crasher twice, the second time on the recovered store.
        let runs = seed % 3 == 2 ? 2 : 1
        var model: [String: UInt64] = [:]

        for run in 0..<runs {
            let context = "\(target.name) seed \(seed) run \(run); rerun with FLEET_CRASH_SEED=\(seed) swift test --filter CrashTests"
            // Kill inside a commit (two in three) or just after one; one kill in three aims at a
            // commit that compacts (in a fresh file store, commit k appends journal record k).
            let compactEvery = 3 + Int(random.next() % 40)
            // An SQLite store files its history points by vehicle after every few of them, so that a
            // kill may land on, before or after a filing.
            let filingEvery = 1 + Int(random.next() % 12)
            var killCommit = 1 + Int(random.next() % UInt64(Self.commitsPerRun + 5))
            if run == 0 && random.next() % 3 == 0 { killCommit = max(1, killCommit / compactEvery) * compactEvery }
            let killPoint = CrashKillPoint(commit: killCommit, afterAcknowledgement: random.next() % 3 == 0,
                                           yields: Int(random.next() % 3000))
            let output = try CrasherProcess.run(
                crasher,
                arguments: [target.url(path), "--seed", "\(seed &* 31 &+ UInt64(run))", "--count", "\(Self.commitsPerRun)",
                            "--compact-records", "\(compactEvery)", "--history-filing-interval", "\(filingEvery)",
                            "--provider", Self.provider],
                stderrPath: scratch.root + "/crasher-\(run).stderr",
                killPoint: killPoint
            ) { pid in
                // While it runs, a single-process store keeps this process out, naming the holder.
                guard target.singleProcess else { return }
                let error = try #require(throws: FleetError.self, "\(context)") { try target.open(path) }
                #expect(error.cause == ErrorCause.storeBusy.id, "\(context)")
                #expect(error.message.contains("process \(pid)"), "\(context)")
            }
            #expect(output.errorLine == nil, "crasher failed: \(output.errorLine ?? "") [\(context)]")
            #expect(output.finished || output.killed, "crasher exited with \(output.exitDescription) [\(context)]")

            let log = CrashLog(lines: output.lines)
            #expect(log.problems.isEmpty, "\(log.problems) [\(context)]")
            for (key, version) in log.acknowledged { model[key] = version }

            let store: any Store
            do {
                store = try target.open(path)
            } catch {
                Issue.record("the store did not reopen after the kill: \(error) [\(context)]")
                return
            }
            let records = try Self.everything(store)
            try Self.check(records: records, model: model, inFlight: log.inFlight, context: context)
            try Self.checkIndexes(store, records: records, context: context)
            try Self.checkHistory(store, records: records, context: context)
            model = Dictionary(uniqueKeysWithValues: records.map { ($0.key.description, $0.version) })
            try store.close()
        }

        // The recovered store takes new writes, which survive the next open.
        let context = "\(target.name) seed \(seed) after the crashes"
        let store = try target.open(path)
        let fresh = StoreRecord(key: RecordKey(.vehicle, provider: Self.provider, id: "after"), version: 0, payload: [1, 2, 3],
                                point: IndexPoint(latitude: 1, longitude: 1))
        try store.commit(.put(fresh, expectedVersion: 0))
        var expected = try Self.everything(store)
        if let first = expected.first(where: { $0.key.id != "after" }) {
            var updated = first
            updated.payload = [9]
            try store.commit(.put(updated, expectedVersion: first.version))
            expected = try Self.everything(store)
        }
        try store.close()
        let reopened = try target.open(path)
        #expect(try Self.everything(reopened) == expected, "\(context)")
        try reopened.close()
    }

    /// A disk that fills up mid-append (RLIMIT_FSIZE in the crasher) fails those commits; each failed
    /// append is cut back, so the journal never holds a torn record before later ones, and the store
    /// reopens with exactly the commits that succeeded.
    @Test func appendsCutShortByAFullDiskAreUndone() throws {
        let crasher = try #require(locateStoreCrasher(), "store-crasher was not built next to the test bundle (swift build builds it)")
        let scratch = FileStoreScratch()
        let output = try CrasherProcess.run(
            crasher,
            arguments: ["file:\(scratch.storePath)", "--seed", "77", "--count", "\(Self.commitsPerRun)",
                        "--provider", Self.provider, "--file-size-limit", "40000"],
            stderrPath: scratch.root + "/crasher.stderr",
            killPoint: CrashKillPoint(commit: .max, afterAcknowledgement: true, yields: 0)
        ) { _ in }
        #expect(output.finished, "crasher exited with \(output.exitDescription): \(output.errorLine ?? "")")
        let failures = output.lines.filter { $0.hasPrefix("failed ") }
        #expect(failures.count > 3)
        #expect(failures.allSatisfy { $0.contains("File too large") })
        let log = CrashLog(lines: output.lines)
        #expect(log.problems.isEmpty, "\(log.problems)")
        #expect(log.inFlight.isEmpty)
        let model = Dictionary(log.acknowledged, uniquingKeysWith: { $1 })

        let store = try FileStore(directory: scratch.storePath, log: { _ in })
        #expect(store.recovery.truncatedBytes == 0)
        let records = try Self.everything(store)
        try Self.check(records: records, model: model, inFlight: [:], context: "file size limit")
        try Self.checkIndexes(store, records: records, context: "file size limit")
        try store.close()
    }

    /// Every acknowledged write is there at its version; the commit the kill cut is all there or not
    /// at all; nothing else is there; every record is whole (its payload names its own fields).
    static func check(records: [StoreRecord], model: [String: UInt64], inFlight: [String: UInt64], context: String) throws {
        let found = Dictionary(uniqueKeysWithValues: records.map { ($0.key.description, $0.version) })
        for (key, version) in model where inFlight[key] == nil {
            #expect(found[key] ?? 0 == version, "acknowledged \(key) at \(version), found \(found[key] ?? 0) [\(context)]")
        }
        if !inFlight.isEmpty {
            let applied = inFlight.allSatisfy { found[$0.key] ?? 0 == $0.value }
            let notApplied = inFlight.allSatisfy { found[$0.key] ?? 0 == model[$0.key] ?? 0 }
            #expect(applied || notApplied, "the cut commit \(inFlight) is half applied: found \(inFlight.keys.map { "\($0)@\(found[$0] ?? 0)" }) [\(context)]")
        }
        for (key, version) in found {
            let known = model[key] == version || inFlight[key] == version
            #expect(known, "\(key) at \(version) was never written [\(context)]")
        }
        for record in records {
            #expect(CrashPayloadCheck.problem(record) == nil, "\(CrashPayloadCheck.problem(record) ?? "") [\(context)]")
        }
    }

    /// The indexes rebuilt by recovery agree with the records.
    /// Each vehicle write of the crasher keeps a history point whose time is the version written, in
    /// the same commit: a vehicle at version v has exactly the points 1…v, none lost (an acknowledged
    /// write's), none without its write (the commit the kill cut), none twice.
    /// A vehicle's own reads (the SQLite store's points filed by vehicle and its unfiled tail) find
    /// the same points.
    static func checkHistory(_ store: any Store, records: [StoreRecord], context: String) throws {
        var times: [String: [Int64]] = [:]
        try store.forEachHistoryPoint(HistoryQuery(provider: provider), pageSize: 500) { point in
            times[point.vehicleID, default: []].append(point.time)
            return true
        }
        for record in records where record.key.kind == .vehicle {
            let kept = (times[record.key.id] ?? []).sorted()
            #expect(kept == Array(1...Int64(record.version)),
                    "\(record.key) is at version \(record.version) but its history holds the points \(kept) [\(context)]")
            var own: [Int64] = []
            try store.forEachHistoryPoint(HistoryQuery(kind: .vehicle, provider: provider, vehicleID: record.key.id), pageSize: 7) { point in
                own.append(point.time)
                return true
            }
            #expect(own == kept, "\(record.key)'s own history reads \(own), the whole history \(kept) [\(context)]")
        }
    }

    static func checkIndexes(_ store: any Store, records: [StoreRecord], context: String) throws {
        for record in records {
            switch record.key.kind {
            case .vehicle:
                guard let point = record.point else { continue }
                let near = try store.nearby(provider: provider, center: point, radiusMeters: 1)
                #expect(near.contains(record), "\(record.key) is missing from nearby [\(context)]")
            case .trip:
                guard let owner = record.owner else { continue }
                #expect(try store.owned(by: owner, provider: provider).contains(record), "\(record.key) is missing from owned [\(context)]")
            case .roadTimes, .deliveryVehicle, .task, .shipment:
                continue
            }
        }
    }

    static func everything(_ store: any Store) throws -> [StoreRecord] {
        try RecordKind.allCases.flatMap { try store.list($0, provider: provider, afterID: nil, limit: .max) }
    }
}

/// A persistent store the crash test runs against.
struct CrashTarget: Sendable, CustomTestStringConvertible {
    /// The scheme's name, for test names and messages.
    var name: String
    /// The URL store-crasher opens for a store kept at `path`.
    var url: @Sendable (_ path: String) -> String
    /// Opens the store at `path` in this process.
    var open: @Sendable (_ path: String) throws -> any Store
    /// Whether the store admits one process at a time (then a second opener must get `storeBusy`).
    var singleProcess: Bool

    var testDescription: String { name }
}

/// What the crasher printed: `intent <n> <key> <version>` before commit n, `ack <key> <version>`
/// after it returned, `failed <n> …` when it threw (with a file size limit), `done` at the end,
/// `error …` on failure.
private struct CrashLog {
    /// The last acknowledged version of each key, in order of acknowledgement.
    var acknowledged: [(String, UInt64)] = []
    /// The writes of the commit the kill interrupted (announced, not acknowledged).
    var inFlight: [String: UInt64] = [:]
    var problems: [String] = []

    init(lines: [String]) {
        var announced: [String: UInt64] = [:]
        var lastWasAck = false
        for line in lines {
            let fields = line.split(separator: " ").map(String.init)
            switch (fields.first, fields.count) {
            case ("intent", 4):
                if lastWasAck { announced = [:] }
                announced[fields[2]] = UInt64(fields[3])
                lastWasAck = false
            case ("ack", 3):
                let version = UInt64(fields[2]) ?? .max
                if announced[fields[1]] != version { problems.append("ack '\(line)' does not match the announced \(announced)") }
                acknowledged.append((fields[1], version))
                lastWasAck = true
            case ("failed", _):
                // The commit failed (a full disk): it must not be there.
                announced = [:]
                lastWasAck = true
            case ("done", 1), ("error", _):
                break
            default:
                problems.append("unreadable line '\(line)'")
            }
        }
        inFlight = lastWasAck ? [:] : announced
    }
}

/// Checks a record against the header its payload starts with (see the crasher's `CrashPayload`):
/// `<key> <version> <latitude bits|-> <longitude bits|-> <owner|-> <filler length>|<filler>`.
private enum CrashPayloadCheck {
    static func problem(_ record: StoreRecord) -> String? {
        guard let bar = record.payload.firstIndex(of: UInt8(ascii: "|")) else { return "\(record.key): payload has no header" }
        let header = Array(record.payload[...bar])
        let fields = String(decoding: header.dropLast(), as: UTF8.self).split(separator: " ").map(String.init)
        guard fields.count == 6, let fillerLength = Int(fields[5]) else { return "\(record.key): bad header \(fields)" }
        let latitude = record.point.map { String($0.latitude.bitPattern, radix: 16) } ?? "-"
        let longitude = record.point.map { String($0.longitude.bitPattern, radix: 16) } ?? "-"
        let expected = [record.key.description, "\(record.version)", latitude, longitude, record.owner ?? "-", fields[5]]
        guard fields == expected else { return "\(record.key): payload header \(fields) does not match the record \(expected)" }
        let filler = record.payload[(bar + 1)...]
        guard filler.count == fillerLength,
              filler.enumerated().allSatisfy({ $0.element == header[$0.offset % header.count] })
        else { return "\(record.key) v\(record.version): payload filler is damaged" }
        return nil
    }
}

/// One run of the crasher: started, read line by line, killed after a number of acknowledgements.
private struct CrasherProcess {
    var lines: [String] = []
    var finished = false
    var killed = false
    var errorLine: String?
    var exitDescription = ""

    static func run(_ executable: String, arguments: [String], stderrPath: String, killPoint: CrashKillPoint,
                    whileRunning: (Int32) throws -> Void) throws -> CrasherProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        try process.run()
        try? stdout.fileHandleForWriting.close()

        var result = CrasherProcess()
        var reader = LineReader(descriptor: stdout.fileHandleForReading.fileDescriptor)
        var checkedWhileRunning = false
        var commit = 0
        while let line = reader.next() {
            result.lines.append(line)
            let fields = line.split(separator: " ")
            if fields.first == "intent", fields.count > 1, let number = Int(fields[1]) {
                commit = number
            }
            if line.hasPrefix("ack "), !checkedWhileRunning {
                checkedWhileRunning = true
                try whileRunning(process.processIdentifier)
            }
            if line == "done" { result.finished = true }
            if line.hasPrefix("error") { result.errorLine = line }
            let due = commit == killPoint.commit && line.hasPrefix(killPoint.afterAcknowledgement ? "ack " : "intent ")
            if due && !result.killed {
                // Let the crasher run on for a moment, so the kill lands anywhere inside the commit.
                for _ in 0..<killPoint.yields { sched_yield() }
                kill(process.processIdentifier, SIGKILL)
                result.killed = true
            }
        }
        process.waitUntilExit()
        result.exitDescription = "\(process.terminationReason == .exit ? "exit status" : "signal") \(process.terminationStatus)"
        if result.killed && process.terminationReason == .exit {
            result.killed = false  // it ended on its own before the signal landed
        }
        return result
    }
}

/// When to kill the crasher: once commit `commit` is announced (so the kill lands inside it: while it
/// validates, appends, syncs or compacts) or once it is acknowledged, after `yields` yields of the CPU.
/// A commit number past the end lets the crasher finish.
private struct CrashKillPoint: CustomStringConvertible {
    var commit: Int
    var afterAcknowledgement: Bool
    var yields: Int

    var description: String { "\(afterAcknowledgement ? "ack" : "intent") of commit \(commit) + \(yields) yields" }
}

/// Reads complete lines from a file descriptor until end of file; a cut last line is dropped.
private struct LineReader {
    let descriptor: Int32
    private var buffer: [UInt8] = []
    private var atEnd = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    mutating func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            if atEnd { return nil }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                atEnd = true
            } else {
                buffer += chunk[0..<count]
            }
        }
    }
}


/// The `store-crasher` executable `swift build` made, if any.
fileprivate func locateStoreCrasher() -> String? {
    try? Products.locate("store-crasher").path
}
