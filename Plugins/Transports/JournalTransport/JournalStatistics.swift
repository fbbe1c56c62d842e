/// What a journal transport has done since it opened: cheap counters for logs and `/metrics`.
public struct JournalStatistics: Sendable, Hashable {
    /// Records applied to this process's engine: every record of the journal read so far, its own included.
    public var recordsApplied = 0
    /// Records this transport appended (its own successful calls).
    public var recordsAppended = 0
    /// The sequence number of the last record applied (0 for an empty journal).
    public var lastSequence = 0
    /// The journal bytes read and applied.
    public var bytesApplied = 0
    /// Torn tails (a partial line left by a writer that died mid-append) this transport cut off.
    public var tornTailsCut = 0

    /// Counters at zero.
    public init() {}
}
