import FleetStore
import FleetTestSupport
import Foundation
@testable import PostgresStore
import Testing

/// The PostgreSQL store's two tables of the position history: points appended to `history_recent`
/// and moved into the indexed `history` in bulk read the same before, during and after a move.
@Suite(.enabled(if: PostgresCluster.isInstalled, Comment(rawValue: PostgresCluster.missingMessage)))
struct PostgresStoreHistoryTests {
    let cluster: PostgresCluster

    init() throws {
        cluster = try #require(try PostgresCluster.shared)
    }

    /// The points in `history_recent` and in `history` of database `name`, as "RECENT|MOVED".
    func placement(_ name: String) throws -> String {
        try cluster.psql("SELECT (SELECT count(*) FROM history_recent) || '|' || (SELECT count(*) FROM history)", database: name)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func pointsReadTheSameAtOnceAndAfterTheyWereMoved() throws {
        let url = try cluster.database(named: "history_moved")
        let name = String(url.split(separator: "/").last!)
        let store = try PostgresStore(url: url)
        defer { try? store.close() }
        try HistoryContract.drive("v1", times: [10, 30, 50], trips: ["t1"], in: store)
        try HistoryContract.drive("v2", times: [20, 40], in: store)
        #expect(try placement(name) == "5|0")
        let queries = [HistoryQuery(), HistoryQuery(provider: "p", vehicleID: "v1"), HistoryQuery(tripID: "t1"),
                       HistoryQuery(provider: "p", vehicleID: "v2", from: 30_000_000)]
        let before = try queries.map { try store.history($0, after: nil, limit: 100) }
        #expect(HistoryContract.times(before[0]) == [10, 20, 30, 40, 50])
        #expect(HistoryContract.times(before[3]) == [40])

        // A prune moves first; nothing is old enough to go.
        #expect(try store.pruneHistory(before: 5_000_000, limit: 10) == 0)
        #expect(try placement(name) == "0|5")
        #expect(try queries.map { try store.history($0, after: nil, limit: 100) } == before)

        // Points after the move read with the moved ones, in time order, across pages.
        try store.commit(.put(HistoryContract.update("v2", time: 35), expectedVersion: 2))
        #expect(try placement(name) == "1|5")
        var paged: [HistoryPoint] = []
        var cursor: HistoryCursor?
        while true {
            let page = try store.history(HistoryQuery(), after: cursor, limit: 2)
            paged += page
            guard let last = page.last else { break }
            cursor = last.cursor
        }
        #expect(HistoryContract.times(paged) == [10, 20, 30, 35, 40, 50])
        #expect(Set(paged.map(\.sequence)).count == 6)
    }

    @Test func theStoreMovesAfterEnoughPointsOnItsOwn() throws {
        let url = try cluster.database(named: "history_moves_itself")
        let name = String(url.split(separator: "/").last!)
        let store = try PostgresStore(url: url)
        defer { try? store.close() }
        let count = HistoryMover.pointsPerMove + 10
        try HistoryContract.drive("v1", times: (1...Int64(count)).map { $0 }, in: store)
        // The move runs in the background: wait for it, a few seconds at most.
        let deadline = Date().addingTimeInterval(10)
        while try placement(name).split(separator: "|").last.map({ Int($0) ?? 0 }) ?? 0 < HistoryMover.pointsPerMove, Date() < deadline {
            usleep(20_000)
        }
        let moved = try #require(Int(try placement(name).split(separator: "|").last ?? ""))
        #expect(moved >= HistoryMover.pointsPerMove)
        let points = try store.history(HistoryQuery(provider: "p", vehicleID: "v1"), after: nil, limit: count + 1)
        #expect(HistoryContract.times(points) == (1...Int64(count)).map { $0 })
    }
}
