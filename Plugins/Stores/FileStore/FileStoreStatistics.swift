/// Counters of a file store since it was opened (for metrics and benchmarks).
public struct FileStoreStatistics: Sendable, Hashable {
    /// Journal records appended: commits that changed something.
    public var commits = 0
    /// Journal syncs done for commits; fewer than `commits` when committers shared syncs.
    public var syncs = 0
    /// Compactions completed.
    public var compactions = 0

    /// All counters at zero.
    public init() {}
}
