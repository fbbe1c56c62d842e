import FleetEngine
import FleetErrors
import FleetInterface
import FleetModel

extension JournalTransport {
    /// Makes a record's call on `api` (an engine, or any transport, such as an HTTP client for
    /// `fleet-admin replay`). With `clock`, the engine reading it sees the record's time while the call
    /// runs, which reproduces the journal's state exactly; without, the target's own time applies.
    public static func apply(_ record: JournalRecord, to api: any FleetAPI, clock: RecordTimeClock? = nil) throws {
        if let clock {
            _ = try clock.pinned(to: record.at) { try record.call.respond(from: api) }
        } else {
            _ = try record.call.respond(from: api)
        }
    }

    /// Applies every record of the journal at `path` to `api`, in order (see `apply(_:to:clock:)`).
    ///
    /// - Throws: the journal's errors (DATA_LOSS naming the line), or the first call that fails, its
    ///   message prefixed with the journal line and method (code and cause kept).
    @discardableResult
    public static func replay(_ path: String, into api: any FleetAPI, clock: RecordTimeClock? = nil) throws -> JournalReader.Summary {
        try JournalReader(path: path).read { record in
            do {
                try apply(record, to: api, clock: clock)
            } catch var error as FleetError {
                error.message = "\(path) line \(record.sequence) (\(record.call.method)): \(error.message)"
                throw error
            }
        }
    }
}
