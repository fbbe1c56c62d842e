import FleetEngine
import FleetErrors
import FleetInterface
import FleetModel
import MemoryStore
import Synchronization

/// The `file:PATH` transport: a journal of mutating calls shared by the processes of one host.
///
/// Every process opens the same journal (JSON lines, see docs/journal-format.md) and applies it, in
/// order, to an engine of its own over a memory store, so all of them hold the same state and compute
/// the same result for every call. A mutating call takes the journal's exclusive `flock`, applies the
/// records others appended since its last read, makes the call on its engine with the clock reading
/// the call's time, and, only when it succeeded, appends it as the next record and syncs the file
/// before returning. Calls that fail (a duplicate create, a bad field) are not journaled: they change
/// nothing, and any process making the same call at that point of the journal fails the same way.
/// Reads first apply whatever was appended, then ask the engine. While a trip is watched, a
/// background thread polls the journal, so changes made by other processes reach watchers within
/// milliseconds.
public final class JournalTransport: FleetCallPerforming, TripWatching, TaskWatching {
    /// How often, in seconds, the journal is polled for other processes' records while anyone watches.
    public static let tailInterval = 0.025

    /// The journal's path.
    public let path: String
    /// Whether appends are synced to disk before a call returns.
    public let durable: Bool
    let engine: Engine
    let clock: RecordTimeClock
    let state: Mutex<JournalState>
    let watches = WatchRegistry()
    let tailer = JournalTailer(interval: JournalTransport.tailInterval)

    /// Opens (or creates, mode 0600) the journal at `path` and applies every record in it.
    ///
    /// `clock` gives the time of new calls and of reads; `durable: false` skips the sync of each append
    /// (for tests and throwaway sessions).
    ///
    /// - Throws: INVALID_ARGUMENT for an empty path; `journalIOFailure` when the file cannot be opened; DATA_LOSS naming the line when the
    ///   journal is corrupt or a record fails to apply; `journalFormatTooNew`.
    public init(path: String, clock: any EngineClock = SystemClock(), durable: Bool = true) throws {
        guard !path.isEmpty else {
            throw FleetError.invalidArgument("the journal path is empty: name a file, as in file:/tmp/fleet.journal")
        }
        self.path = path
        self.durable = durable
        let clock = RecordTimeClock(base: clock)
        self.clock = clock
        engine = Engine(store: MemoryStore(), clock: clock)
        let file = try JournalFile.open(path, create: true)
        var initial = JournalState(file: file, cursor: JournalCursor(source: path))
        _ = try Self.catchUp(&initial, engine: engine, clock: clock)
        state = Mutex(initial)
    }

    deinit {
        tailer.stop()
    }

    /// What this transport has done so far.
    public var statistics: JournalStatistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.lastSequence = state.cursor.lastSequence
            statistics.bytesApplied = state.cursor.offset
            return statistics
        }
    }

    /// Applies the records other processes appended since the last call (a call does this by itself).
    ///
    /// - Throws: the journal's failure, or the transport's closing.
    public func refresh() throws {
        try state.withLock { state in
            _ = try catchUp(&state)
        }
    }

    /// Closes the journal: watches end, and later calls fail with `journalTransportClosed`.
    public func close() {
        tailer.stop()
        state.withLock { state in
            state.file?.close()
            state.file = nil
        }
        watches.cancelAll()
    }

    // MARK: Applying the journal

    /// Applies the records appended since the cursor; returns the bytes of an incomplete last line.
    func catchUp(_ state: inout JournalState) throws -> Int {
        do {
            return try Self.catchUp(&state, engine: engine, clock: clock)
        } catch let error as FleetError where state.failure == error {
            watches.cancelAll()
            throw error
        }
    }

    /// Applies the records appended since `state`'s cursor to `engine`, each with `clock` pinned to its
    /// time. A journal that cannot be trusted (corrupt, too new, a record that fails) sets the state's
    /// failure, which every later call throws.
    static func catchUp(_ state: inout JournalState, engine: Engine, clock: RecordTimeClock) throws -> Int {
        let file = try state.usableFile(path: state.cursor.source)
        let source = state.cursor.source
        var cursor = state.cursor
        var applied = 0
        defer {
            state.cursor = cursor
            state.statistics.recordsApplied += applied
        }
        do {
            return try cursor.advance(in: file) { record in
                do {
                    try apply(record, to: engine, clock: clock)
                } catch {
                    throw FleetError(.journalReplayDiverged,
                                     detail: "\(source) line \(record.sequence) (\(record.call.method)): \(error)")
                }
                applied += 1
            }
        } catch let error as FleetError where Self.isPermanent(error) {
            state.failure = error
            throw error
        }
    }

    /// Whether an error means the journal cannot be trusted any more (as opposed to a passing I/O error).
    static func isPermanent(_ error: FleetError) -> Bool {
        [ErrorCause.transportJournalCorrupt.id, ErrorCause.journalFormatTooNew.id, ErrorCause.journalReplayDiverged.id]
            .contains(error.cause ?? "")
    }

    // MARK: Calls

    /// Applies what others appended, then runs a read on the engine.
    func read<Result>(_ body: (Engine) throws -> Result) throws -> Result {
        try state.withLock { state in
            _ = try catchUp(&state)
        }
        return try body(engine)
    }

    /// Runs a mutating call under the journal's lock, after applying every earlier record, with the
    /// engine's clock reading the call's time; appends and syncs it when it succeeded.
    func mutate<Result: Sendable>(_ call: FleetCall, _ perform: (Engine) throws -> Result) throws -> Result {
        try state.withLock { state in
            let file = try state.usableFile(path: path)
            try file.lockExclusive()
            defer { file.unlock() }
            let tornTail = try catchUp(&state)
            if tornTail > 0 {
                // Left by a writer that died mid-append, under the lock we now hold: it was never acknowledged.
                try file.truncate(to: state.cursor.offset)
                state.statistics.tornTailsCut += 1
            }
            let wallTime = clock.base.now()
            let at = state.cursor.lastTime.map { max($0, wallTime) } ?? wallTime
            let result = try clock.pinned(to: at) { try perform(engine) }
            let record = JournalRecord(sequence: state.cursor.lastSequence + 1, at: at, call: call)
            try append(record, to: file, state: &state)
            return result
        }
    }

    /// Appends a record this process already applied; a failure stops the transport, since its engine
    /// now holds a change the journal may not.
    private func append(_ record: JournalRecord, to file: JournalFile, state: inout JournalState) throws {
        let line = record.line
        let offset = state.cursor.offset
        do {
            try file.write(line, at: offset)
        } catch let error as FleetError {
            try? file.truncate(to: offset)
            throw stop(&state, error, "the call was applied here but not journaled")
        }
        do {
            if durable { try file.syncData() }
        } catch let error as FleetError {
            throw stop(&state, error, "the call is in the journal but may not be on disk")
        }
        state.cursor.passAppended(record, length: line.count)
        state.statistics.recordsAppended += 1
        state.statistics.recordsApplied += 1
    }

    /// Makes `error` (with `consequence`) the failure every later call throws, and ends the watches.
    private func stop(_ state: inout JournalState, _ error: FleetError, _ consequence: String) -> FleetError {
        var failure = error
        failure.message += "; \(consequence), so this connection stops: open the journal again"
        state.failure = failure
        watches.cancelAll()
        return failure
    }
}
