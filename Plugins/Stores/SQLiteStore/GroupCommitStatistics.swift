/// How well group commit is sharing transactions: a snapshot of counters since the store opened.
public struct GroupCommitStatistics: Sendable, Hashable {
    /// Write transactions run (one fsync each when the store is durable).
    public var transactions: Int
    /// Commit calls served by them.
    public var batches: Int
    /// How many transactions served each number of commit calls: closed-loop writers that alternate
    /// between two groups show as a peak at half their number.
    public var groupSizes: [Int: Int]

    public init(transactions: Int = 0, batches: Int = 0, groupSizes: [Int: Int] = [:]) {
        self.transactions = transactions
        self.batches = batches
        self.groupSizes = groupSizes
    }

    /// Commit calls per transaction (1 when writers never overlap).
    public var batchesPerTransaction: Double {
        transactions == 0 ? 0 : Double(batches) / Double(transactions)
    }

    /// The counts since `earlier`, a snapshot of the same store.
    public func since(_ earlier: GroupCommitStatistics) -> GroupCommitStatistics {
        var sizes = groupSizes
        for (size, count) in earlier.groupSizes { sizes[size, default: 0] -= count }
        return GroupCommitStatistics(transactions: transactions - earlier.transactions, batches: batches - earlier.batches,
                                     groupSizes: sizes.filter { $0.value != 0 })
    }
}
