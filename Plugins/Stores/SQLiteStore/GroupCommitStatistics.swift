/// How well group commit is sharing transactions and fsyncs: a snapshot of counters since the store opened.
public struct GroupCommitStatistics: Sendable, Hashable {
    /// Write transactions run.
    public var transactions: Int
    /// Commit calls served by them.
    public var batches: Int
    /// fsyncs of the log that made transactions durable, each covering every transaction committed
    /// before it began (0 when the store is not durable).
    public var syncs: Int
    /// How many transactions served each number of commit calls: writers that alternate between two
    /// groups show as a peak at half their number.
    public var groupSizes: [Int: Int]

    public init(transactions: Int = 0, batches: Int = 0, syncs: Int = 0, groupSizes: [Int: Int] = [:]) {
        self.transactions = transactions
        self.batches = batches
        self.syncs = syncs
        self.groupSizes = groupSizes
    }

    /// Commit calls per transaction (1 when writers never overlap).
    public var batchesPerTransaction: Double {
        transactions == 0 ? 0 : Double(batches) / Double(transactions)
    }

    /// Commit calls per fsync: at most the number of writers when each waits for its own.
    public var batchesPerSync: Double {
        syncs == 0 ? 0 : Double(batches) / Double(syncs)
    }

    /// The counts since `earlier`, a snapshot of the same store.
    public func since(_ earlier: GroupCommitStatistics) -> GroupCommitStatistics {
        var sizes = groupSizes
        for (size, count) in earlier.groupSizes { sizes[size, default: 0] -= count }
        return GroupCommitStatistics(transactions: transactions - earlier.transactions, batches: batches - earlier.batches,
                                     syncs: syncs - earlier.syncs, groupSizes: sizes.filter { $0.value != 0 })
    }
}
