import FleetConcurrency
import Foundation
import FleetStore
import FileStore

/// Commits per second of the file store, with 1 and 8 writer threads, durable (fsync per commit,
/// shared by group commit) and not. Each commit is a read-modify-write of one record: `get`, then a
/// `put` of a ~600-byte payload with a new point at the version read. Each writer has its own keys,
/// so there are no conflicts. About 2.5 s per case.
enum FileStoreBenchmarks {
    /// How long each case runs.
    static let duration = 2.5
    /// Records per writer, updated round-robin.
    static let keysPerWriter = 32

    static func run(tempDirectory: String) -> [BenchmarkRow] {
        var rows: [BenchmarkRow] = []
        var durableRates: [Int: Double] = [:]
        var singleWriterRate: [Bool: Double] = [:]
        for durable in [true, false] {
            for writers in [1, 8] {
                let name = "FileStore commit (get + put 600 B), \(writers) writer\(writers == 1 ? "" : "s"), \(durable ? "durable" : "not durable")"
                let directory = "\(tempDirectory)/filestore-bench-\(writers)-\(durable)"
                let result: Measurement
                do {
                    result = try measure(directory: directory, writers: writers, durable: durable)
                } catch {
                    rows.append(BenchmarkRow(name: name, failed: "\(error)"))
                    continue
                }
                try? FileManager.default.removeItem(atPath: directory)
                var comparison: [String] = []
                var ratio: (Double, String)?
                if writers > 1, let single = singleWriterRate[durable] {
                    ratio = (result.rate / single, "1 writer")
                    comparison.append(String(format: "%.1fx 1 writer", result.rate / single))
                } else {
                    singleWriterRate[durable] = result.rate
                }
                if durable {
                    durableRates[writers] = result.rate
                    comparison.append(String(format: "%.1f commits per fsync", result.commitsPerSync))
                } else if let durableRate = durableRates[writers] {
                    ratio = ratio ?? (result.rate / durableRate, "durable")
                    comparison.append(String(format: "%.1fx durable", result.rate / durableRate))
                }
                rows.append(BenchmarkRow(name: name, value: .perSecond(result.rate), comparison: comparison.joined(separator: "; "),
                                         ratio: ratio?.0, baseline: ratio?.1))
            }
        }
        return rows
    }

    private struct Measurement {
        var rate: Double
        var commitsPerSync: Double
    }

    private static func measure(directory: String, writers: Int, durable: Bool) throws -> Measurement {
        try? FileManager.default.removeItem(atPath: directory)
        let store = try FileStore(directory: directory, options: StoreOptions(durable: durable))
        defer { try? store.close() }
        let payload = [UInt8](repeating: UInt8(ascii: "x"), count: 600)
        var seed: [StoreWrite] = []
        for writer in 0..<writers {
            for index in 0..<keysPerWriter {
                seed.append(.put(record(writer: writer, index: index, round: 0, payload: payload), expectedVersion: 0))
            }
        }
        try store.commit(seed)
        let before = store.statistics

        let counts = BenchmarkCounts(writers: writers)
        let group = DispatchGroup()
        let start = DispatchTime.now()
        let deadline = start.uptimeNanoseconds + UInt64(duration * 1e9)
        for writer in 0..<writers {
            group.enter()
            WorkerThread.start(name: "bench-writer") {
                defer { group.leave() }
                var round = 0
                var commits = 0
                do {
                    while DispatchTime.now().uptimeNanoseconds < deadline {
                        round += 1
                        let index = round % keysPerWriter
                        let current = try store.get(key(writer: writer, index: index))?.version ?? 0
                        try store.commit(.put(record(writer: writer, index: index, round: round, payload: payload), expectedVersion: current))
                        commits += 1
                    }
                } catch {
                    counts.fail("writer \(writer): \(error)")
                }
                counts.set(writer, commits)
            }
        }
        group.wait()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        if let failure = counts.failure { throw BenchmarkFailure(message: failure) }
        let after = store.statistics
        let syncs = after.syncs - before.syncs
        let commits = after.commits - before.commits
        return Measurement(rate: Double(counts.total) / elapsed, commitsPerSync: syncs == 0 ? 0 : Double(commits) / Double(syncs))
    }

    private static func key(writer: Int, index: Int) -> RecordKey {
        RecordKey(.vehicle, provider: "bench", id: "w\(writer)-\(index)")
    }

    private static func record(writer: Int, index: Int, round: Int, payload: [UInt8]) -> StoreRecord {
        StoreRecord(key: key(writer: writer, index: index), version: 0, payload: payload,
                    point: IndexPoint(latitude: 48.8 + Double(round % 1000) * 1e-4, longitude: 2.3 + Double(writer) * 1e-3))
    }

    private struct BenchmarkFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Per-writer commit counts, filled in by the writer threads.
    private final class BenchmarkCounts: @unchecked Sendable {
        private let lock = Lock()
        private var counts: [Int]
        private(set) var failure: String?

        init(writers: Int) {
            counts = Array(repeating: 0, count: writers)
        }

        var total: Int { lock.withLock { counts.reduce(0, +) } }

        func set(_ writer: Int, _ count: Int) {
            lock.withLock { counts[writer] = count }
        }

        func fail(_ message: String) {
            lock.withLock { failure = failure ?? message }
        }
    }
}
