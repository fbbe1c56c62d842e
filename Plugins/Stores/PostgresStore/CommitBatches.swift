import FleetErrors
import FleetStore

/// A commit queued for the store's commit threads: its writes and the completion that waits for
/// their outcome.
struct QueuedCommit: Sendable {
    let writes: [StoreWrite]
    let completion: @Sendable (Result<[UInt64], any Error>) -> Void
}

/// Commits what a commit thread took from the queue at once: the commits of one write each
/// together, in one transaction sent as one pipeline (BEGIN, each write's prepared statement,
/// COMMIT: one round trip, one COMMIT and one WAL flush for all), and the others alone, as before.
///
/// Each commit keeps the outcome it would have had alone. A write whose record is not at the
/// expected version (or is gone, or exists already) changes no row and raises no error, so the
/// others commit; its conflict is read afterwards, as alone. A commit of several writes stays out
/// of batches and commits alone, all or nothing. Should the batch's transaction fail anyway (a
/// deadlock, a statement error), PostgreSQL rolled all of it back, and each member commits alone
/// to get its own outcome; a connection lost on the way fails every member UNAVAILABLE (nothing
/// was acknowledged, and whether COMMIT happened is unknown, so nothing is tried again). Members
/// are written in key order, as a commit of several writes is, so that two nodes' batches lock
/// shared rows in the same order.
final class CommitBatches: Sendable {
    private let pool: ConnectionPool
    private let publisher: ChangePublisher

    init(pool: ConnectionPool, publisher: ChangePublisher) {
        self.pool = pool
        self.publisher = publisher
    }

    /// Commits `items` and runs each one's completion.
    func run(_ items: [QueuedCommit]) {
        var together: [QueuedCommit] = []
        var alone: [QueuedCommit] = []
        for item in items {
            do {
                try PostgresStore.validate(item.writes)
            } catch {
                item.completion(.failure(error))
                continue
            }
            if item.writes.count == 1 { together.append(item) } else { alone.append(item) }
        }
        if together.count == 1 {
            alone.insert(together[0], at: 0)
        } else if !together.isEmpty {
            commitTogether(together)
        }
        for item in alone { commitAlone(item) }
    }

    private func commitAlone(_ item: QueuedCommit) {
        item.completion(Result { try pool.withConnection { try PostgresStore.commit(item.writes, on: $0, publisher: publisher) } })
    }

    private func commitTogether(_ members: [QueuedCommit]) {
        let writes = members.map { $0.writes[0] }
        let outcome = Result { try pool.withConnection { try Self.commit(writes, on: $0) } }
        switch outcome {
        case .success(let results):
            publisher.publish(zip(writes, results).compactMap { write, result in (try? result.get()) == nil ? nil : write.key })
            for (member, result) in zip(members, results) { member.completion(result.map { [$0] }) }
        case .failure(let error as FleetError) where error.cause == ErrorCause.storeUnreachable.id:
            for member in members { member.completion(.failure(error)) }
        case .failure:
            for member in members { commitAlone(member) }
        }
    }

    /// Writes `writes` in one transaction of one round trip; each write's version, or its conflict.
    /// Throws when the transaction failed (then nothing of it was applied, unless the connection was
    /// lost, when that is unknown).
    static func commit(_ writes: [StoreWrite], on connection: PGConnection) throws -> [Result<UInt64, any Error>] {
        let order = RecordSQL.keyOrder(writes)
        var statements = [PGStatement(sql: "BEGIN", parameters: [], prepared: false)]
        statements += order.map { RecordSQL.statement(for: writes[$0]) }
        statements.append(PGStatement(sql: "COMMIT", parameters: [], prepared: false))
        var versions = [UInt64?](repeating: nil, count: writes.count)
        do {
            try connection.pipeline(statements, doing: "committing \(writes.count) commits together") { index, rows in
                guard order.indices.contains(index - 1), rows.count == 1 else { return }
                let member = order[index - 1]
                if case .delete = writes[member] { versions[member] = 0 } else { versions[member] = UInt64(bitPattern: rows.int8(0, 0)) }
            }
        } catch {
            if !connection.isBroken && connection.isInTransaction {
                _ = try? connection.execute("ROLLBACK", doing: "rolling back \(writes.count) commits together")
            }
            throw error
        }
        return writes.indices.map { index in
            if let version = versions[index] { return .success(version) }
            do { return .failure(try PostgresStore.conflict(writes[index], on: connection)) } catch { return .failure(error) }
        }
    }
}
