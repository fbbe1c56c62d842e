/// How well group commit is sharing transactions: a snapshot of counters since the store opened.
public struct GroupCommitStatistics: Sendable, Hashable {
    /// Write transactions run (one fsync each when the store is durable).
    public var transactions: Int
    /// Commit calls served by them.
    public var batches: Int

    public init(transactions: Int = 0, batches: Int = 0) {
        self.transactions = transactions
        self.batches = batches
    }

    /// Commit calls per transaction (1 when writers never overlap).
    public var batchesPerTransaction: Double {
        transactions == 0 ? 0 : Double(batches) / Double(transactions)
    }
}
