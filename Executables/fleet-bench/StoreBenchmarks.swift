import CSQLite
import FleetConcurrency
import FleetStore
import Foundation
import MemoryStore
import SQLiteStore
import Synchronization

/// Commit throughput of the stores, against raw SQLite in one transaction measured in the same run.
///
/// Each commit is what the engine does on a vehicle location update: read the vehicle, then put a
/// ~600-byte payload with a new point at the version read (read-modify-write). Writer threads each
/// update their own vehicles, so there are no conflicts; with several writers, the SQLite store's
/// group commit shares one transaction (and one fsync when durable) among the waiting writers.
enum StoreBenchmarks {
    /// How long each store configuration is measured.
    static let secondsPerRun = 2.0
    /// How long each store configuration runs before it is measured.
    static let warmUpSeconds = 0.75
    /// Vehicles each writer thread cycles through.
    static let vehiclesPerWriter = 64
    /// Rows the raw baseline upserts in its single transaction.
    static let baselineRows = 100_000

    static func run(tempDirectory: String) -> [BenchmarkRow] {
        let baseline: Double
        do {
            baseline = try rawBatchedUpserts(path: "\(tempDirectory)/bench-raw.sqlite")
        } catch {
            return [BenchmarkRow(name: "store benchmarks", failed: "\(error)")]
        }
        var rows = [BenchmarkRow(name: "raw SQLite upserts, one transaction, durable (baseline)",
                                 value: .perSecond(baseline), comparison: "100% (baseline)")]
        let runs: [(name: String, writers: Int, aim: String?, open: () throws -> any Store)] = [
            ("memory store commits, 1 writer", 1, nil, { MemoryStore() }),
            ("memory store commits, 8 writers", 8, nil, { MemoryStore() }),
            ("sqlite store commits, durable, 1 writer", 1, nil,
             { try SQLiteStore(path: "\(tempDirectory)/bench-d1.sqlite", options: StoreOptions(durable: true)) }),
            ("sqlite store commits, durable, 8 writers (group commit)", 8, nil,
             { try SQLiteStore(path: "\(tempDirectory)/bench-d8.sqlite", options: StoreOptions(durable: true)) }),
            ("sqlite store commits, durable, 64 writers (group commit)", 64, nil,
             { try SQLiteStore(path: "\(tempDirectory)/bench-d64.sqlite", options: StoreOptions(durable: true)) }),
            ("sqlite store commits, not durable, 1 writer", 1, nil,
             { try SQLiteStore(path: "\(tempDirectory)/bench-n1.sqlite", options: StoreOptions(durable: false)) }),
            ("sqlite store commits, not durable, 8 writers (group commit)", 8, nil,
             { try SQLiteStore(path: "\(tempDirectory)/bench-n8.sqlite", options: StoreOptions(durable: false)) }),
        ]
        for run in runs {
            do {
                let store = try run.open()
                defer { try? store.close() }
                let measured = try commitsPerSecond(store, writers: run.writers)
                var percent = String(format: "%.1f%% of raw batched", measured / baseline * 100)
                if let sqlite = store as? SQLiteStore, run.writers > 1 {
                    percent += String(format: "; %.1f commits per transaction", sqlite.groupCommitStatistics.batchesPerTransaction)
                }
                rows.append(BenchmarkRow(name: run.name, value: .perSecond(measured),
                                         comparison: run.aim.map { "\(percent); \($0)" } ?? percent,
                                         ratio: measured / baseline, baseline: "raw SQLite upserts, one transaction"))
            } catch {
                rows.append(BenchmarkRow(name: run.name, failed: "\(error)"))
            }
        }
        for name in ["raw", "d1", "d8", "d64", "n1", "n8"] {
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: "\(tempDirectory)/bench-\(name).sqlite\(suffix)")
            }
        }
        return rows
    }

    /// A vehicle-like JSON payload of about 600 bytes.
    static func payload(id: String, sequence: Int, point: IndexPoint) -> [UInt8] {
        var text = """
            {"name":"providers/bench/vehicles/\(id)","vehicleState":"ONLINE","supportedTripTypes":["EXCLUSIVE","SHARED"],\
            "currentTrips":[],"lastLocation":{"location":{"latitude":\(point.latitude),"longitude":\(point.longitude)},\
            "updateTime":"2024-05-01T12:00:\(sequence % 60)Z","heading":\(sequence % 360),"speed":11.5,"speedAccuracy":0.5,\
            "horizontalAccuracy":4.2,"locationSensor":"GPS","isRoadSnapped":true},"maximumCapacity":4,\
            "vehicleType":{"category":"AUTO"},"attributes":[{"key":"class","value":"comfort"},{"key":"seats","value":"4"}],\
            "navigationStatus":"ENROUTE_TO_DESTINATION","etaToFirstWaypoint":"312s","remainingDistanceMeters":2800,\
            "remainingTimeSeconds":312,"backToBackEnabled":false,"sequence":\(sequence)}
            """
        while text.utf8.count < 600 { text += " " }
        return Array(text.utf8)
    }

    static func point(_ sequence: Int) -> IndexPoint {
        IndexPoint(latitude: 52.5 + Double(sequence % 1000) * 1e-5, longitude: 13.4 + Double(sequence % 777) * 1e-5)
    }

    /// Creates the writers' vehicles, warms the store up for `warmUpSeconds` (a new SQLite file's log
    /// grows at first, which costs more than the steady state), then drives it with `writers` threads
    /// for `secondsPerRun`; returns commits per second.
    static func commitsPerSecond(_ store: any Store, writers: Int) throws -> Double {
        for writer in 0..<writers {
            for vehicle in 0..<vehiclesPerWriter {
                let id = "w\(writer)-v\(vehicle)"
                let record = StoreRecord(key: RecordKey(.vehicle, provider: "bench", id: id), version: 0,
                                         payload: payload(id: id, sequence: 0, point: point(0)), point: point(0))
                try store.commit(.put(record, expectedVersion: 0))
            }
        }
        _ = try drive(store, writers: writers, seconds: warmUpSeconds)
        let (commits, elapsed) = try drive(store, writers: writers, seconds: secondsPerRun)
        return Double(commits) / elapsed
    }

    /// Runs the read-modify-write loop on `writers` threads for `seconds`; returns the commits and
    /// the seconds they took.
    static func drive(_ store: any Store, writers: Int, seconds: Double) throws -> (commits: Int, elapsed: Double) {
        let counts = WriterCounts(writers: writers)
        let start = Semaphore()
        let done = Semaphore()
        let began = Date()
        let deadline = began.addingTimeInterval(seconds)
        for writer in 0..<writers {
            WorkerThread.start(name: "bench-writer") {
                start.wait()
                var commits = 0
                var failure: (any Error)?
                do {
                    var sequence = 1
                    while Date() < deadline {
                        let id = "w\(writer)-v\(sequence % vehiclesPerWriter)"
                        let key = RecordKey(.vehicle, provider: "bench", id: id)
                        guard let current = try store.get(key) else { break }
                        let moved = point(sequence)
                        let next = StoreRecord(key: key, version: 0, payload: payload(id: id, sequence: sequence, point: moved),
                                               point: moved)
                        do {
                            try store.commit(.put(next, expectedVersion: current.version))
                            commits += 1
                        } catch is StoreConflict {
                            continue
                        }
                        sequence += 1
                    }
                } catch {
                    failure = error
                }
                counts.record(writer: writer, commits: commits, failure: failure)
                done.signal()
            }
        }
        for _ in 0..<writers { start.signal() }
        for _ in 0..<writers { done.wait() }
        return (try counts.total(), Date().timeIntervalSince(began))
    }

    /// The baseline: `baselineRows` upserts of the same kind of rows (record, point and grid cell)
    /// through one prepared statement in ONE durable transaction, no engine in between. Returns rows
    /// per second.
    static func rawBatchedUpserts(path: String) throws -> Double {
        let raw = try RawUpsert(path: path)
        defer { raw.close() }
        let ids = (0..<(8 * vehiclesPerWriter)).map { "w\($0 / vehiclesPerWriter)-v\($0 % vehiclesPerWriter)" }
        // Payloads are built outside the timed part, as the store benchmark's callers build theirs.
        let payloads = (0..<1000).map { payload(id: ids[$0 % ids.count], sequence: $0, point: point($0)) }
        let began = Date()
        try exec(raw.db, "BEGIN IMMEDIATE")
        for sequence in 0..<baselineRows {
            try raw.upsert(id: ids[sequence % ids.count], payload: payloads[sequence % payloads.count], at: point(sequence))
        }
        try exec(raw.db, "COMMIT")
        return Double(baselineRows) / Date().timeIntervalSince(began)
    }

    /// Raw durable single-row upserts from `clients` threads, no engine: the same rows as
    /// `rawBatchedUpserts`, each upsert its own transaction (so its own fsync, `synchronous = FULL`),
    /// on one connection the clients take in turn. SQLite runs one write transaction at a time and
    /// has no group commit of its own; taking turns on one connection is that serialisation without
    /// the busy handler's sleeps of separate connections. After `warmUpSeconds`, for `seconds`;
    /// returns upserts per second.
    static func rawDurableUpserts(path: String, clients: Int, seconds: Double) throws -> Double {
        let raw = try RawUpsert(path: path)
        defer { raw.close() }
        let connection = Mutex(raw)
        let payloads = (0..<1000).map { payload(id: "w\($0 % clients)-v\($0 % vehiclesPerWriter)", sequence: $0, point: point($0)) }
        let counts = Mutex((commits: 0, failure: (any Error)?.none))
        let warm = DispatchTime.now().uptimeNanoseconds + UInt64(warmUpSeconds * 1e9)
        let deadline = warm + UInt64(seconds * 1e9)
        let group = DispatchGroup()
        for client in 0..<clients {
            group.enter()
            WorkerThread.start(name: "bench-raw") {
                defer { group.leave() }
                var sequence = 0
                var commits = 0
                do {
                    while DispatchTime.now().uptimeNanoseconds < deadline {
                        let id = "w\(client)-v\(sequence % vehiclesPerWriter)"
                        try connection.withLock { try $0.upsert(id: id, payload: payloads[sequence % payloads.count], at: point(sequence)) }
                        if DispatchTime.now().uptimeNanoseconds >= warm { commits += 1 }
                        sequence += 1
                    }
                    counts.withLock { $0.commits += commits }
                } catch {
                    counts.withLock { $0.failure = error }
                }
            }
        }
        group.wait()
        let (commits, failure) = counts.withLock { $0 }
        if let failure { throw failure }
        return Double(commits) / seconds
    }

    /// A raw connection to a store file (WAL, `synchronous = FULL`, the store's own schema) and
    /// its prepared upsert of a vehicle row, with no engine and no store in between.
    private struct RawUpsert: @unchecked Sendable {
        private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
        let db: OpaquePointer
        private let statement: OpaquePointer

        init(path: String) throws {
            // Same schema as the store: let the store create it.
            try SQLiteStore(path: path).close()
            var opened: OpaquePointer?
            guard sqlite3_open(path, &opened) == SQLITE_OK, let db = opened else { throw RawFailure("cannot open \(path)") }
            do {
                try exec(db, "PRAGMA journal_mode = WAL")
                try exec(db, "PRAGMA synchronous = FULL")
                let sql = """
                    INSERT INTO records (kind, provider, id, version, payload, lat, lng, owner, cell) VALUES ('vehicle', 'bench', ?1, 1, ?2, ?3, ?4, NULL, ?5)
                    ON CONFLICT (kind, provider, id) DO UPDATE SET version = version + 1, payload = excluded.payload,
                        lat = excluded.lat, lng = excluded.lng, cell = excluded.cell
                    """
                var prepared: OpaquePointer?
                guard sqlite3_prepare_v2(db, sql, -1, &prepared, nil) == SQLITE_OK, let statement = prepared else {
                    throw RawFailure(String(cString: sqlite3_errmsg(db)))
                }
                self.db = db
                self.statement = statement
            } catch {
                sqlite3_close(db)
                throw error
            }
        }

        /// One upsert, in the transaction that is open or as its own.
        func upsert(id: String, payload: [UInt8], at moved: IndexPoint) throws {
            sqlite3_reset(statement)
            sqlite3_bind_text(statement, 1, id, -1, Self.transient)
            payload.withUnsafeBytes { _ = sqlite3_bind_blob(statement, 2, $0.baseAddress, Int32($0.count), Self.transient) }
            sqlite3_bind_double(statement, 3, moved.latitude)
            sqlite3_bind_double(statement, 4, moved.longitude)
            sqlite3_bind_int64(statement, 5, SQLiteStore.gridCell(of: moved))
            guard sqlite3_step(statement) == SQLITE_DONE else { throw RawFailure(String(cString: sqlite3_errmsg(db))) }
        }

        func close() {
            sqlite3_finalize(statement)
            sqlite3_close(db)
        }
    }

    private static func exec(_ db: OpaquePointer, _ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw RawFailure("\(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
    }

    /// "18,500 /s".
    static func rate(_ perSecond: Double) -> String { Figure.perSecond(perSecond).text }
}

/// What each benchmark writer thread did.
private final class WriterCounts: @unchecked Sendable {
    private let lock = Lock()
    private var commits: [Int]
    private var failure: (any Error)?

    init(writers: Int) {
        commits = Array(repeating: 0, count: writers)
    }

    func record(writer: Int, commits: Int, failure: (any Error)?) {
        lock.withLock {
            self.commits[writer] = commits
            if self.failure == nil { self.failure = failure }
        }
    }

    func total() throws -> Int {
        try lock.withLock {
            if let failure { throw failure }
            return commits.reduce(0, +)
        }
    }
}

/// A failure of the raw SQLite baseline.
private struct RawFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
