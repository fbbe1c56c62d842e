import Dispatch
import FleetStore
import Synchronization

/// Moves the position history's recent points (`history_recent`, where each vehicle update appends
/// its point) into the indexed history (`history`) in bulk: once every `pointsPerMove` points this
/// store wrote, on a thread of its own, and before each prune. Reads take both tables, so a move
/// changes what they return in nothing (`HistorySQL`).
///
/// Other nodes sharing the database move on their own counts; any node's move takes every point
/// committed so far. A move that fails (the database went away) is tried again after the next
/// `pointsPerMove` points; meanwhile the points stay readable where they are.
final class HistoryMover: Sendable {
    /// Points written between moves: enough for the sorted bulk insert to share index pages, few
    /// enough that reading all of `history_recent` with each history read stays cheap.
    static let pointsPerMove = 1024

    private let pool: ConnectionPool
    private let state = Mutex(State())
    private let running = DispatchGroup()

    private struct State {
        var pointsSinceMove = 0
        var isMoving = false
        var isClosed = false
    }

    init(pool: ConnectionPool) {
        self.pool = pool
    }

    /// Counts `count` points committed; starts a move in the background when `pointsPerMove` have
    /// been since the last one and none is running.
    func wrote(points count: Int) {
        guard count > 0 else { return }
        let starts = state.withLock { state -> Bool in
            state.pointsSinceMove += count
            guard state.pointsSinceMove >= Self.pointsPerMove, !state.isMoving, !state.isClosed else { return false }
            state.pointsSinceMove = 0
            state.isMoving = true
            return true
        }
        guard starts else { return }
        running.enter()
        DispatchQueue.global(qos: .utility).async { [self] in
            _ = try? pool.withConnection { try Self.move(on: $0) }
            state.withLock { $0.isMoving = false }
            running.leave()
        }
    }

    /// Moves every committed point of `history_recent` into `history`; how many it moved.
    @discardableResult
    static func move(on connection: PGConnection) throws -> Int {
        try connection.execute(HistorySQL.move, prepared: true, doing: "moving recent points into the position history's indexes").changed
    }

    /// The number of points of `writes` that keep a point.
    static func points(in writes: [StoreWrite]) -> Int {
        writes.reduce(0) { count, write in
            if case .put(let record, _) = write, record.historyPoint != nil { return count + 1 }
            return count
        }
    }

    /// Starts no more moves and waits for the one running.
    func close() {
        state.withLock { $0.isClosed = true }
        running.wait()
    }
}
