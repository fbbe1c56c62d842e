import Foundation
import ThrowawayPostgres

/// What one durable write costs on the benchmark's cluster, measured over the timed part of a run:
/// CPU of this process (the engine, or the raw clients' libpq) and of the cluster's PostgreSQL
/// processes, and the WAL it wrote. On two cores shared by both, the CPU per write is what bounds
/// the rate, so the two rows of the group (raw and engine) are compared by it.
struct PostgresWriteCost {
    var writes: Int
    /// CPU seconds of this process.
    var benchCPU: Double
    /// CPU seconds of the PostgreSQL server's processes (backends, WAL writer, checkpointer…).
    var postgresCPU: Double
    /// Bytes of WAL written.
    var walBytes: Double

    /// The PostgreSQL server's CPU per write, in microseconds.
    var postgresMicrosecondsPerWrite: Double { postgresCPU / Double(max(1, writes)) * 1e6 }

    /// "bench 41 µs + PostgreSQL 88 µs CPU, 212 B of WAL per write".
    var perWrite: String {
        let n = Double(max(1, writes))
        return String(format: "CPU per write: this process %.0f µs + PostgreSQL %.0f µs = %.0f µs; WAL %.0f B per write",
                      benchCPU / n * 1e6, postgresMicrosecondsPerWrite, (benchCPU + postgresCPU) / n * 1e6, walBytes / n)
    }

    /// A reading taken by `Probe.sample()`.
    struct Reading {
        var benchCPU: Double
        var postgresCPU: Double
        var walPosition: Double
    }

    /// Reads the counters of one cluster: its postmaster's process ID (in `postmaster.pid`) and a
    /// connection for the WAL position. Used by one thread at a time (the benchmark hands it from
    /// the thread that takes the first reading to the one that takes the last).
    final class Probe: @unchecked Sendable {
        private let postmaster: Int32
        private let connection: PostgresBenchmarks.RawConnection

        init(cluster: PostgresCluster, database: String) throws {
            let file = (try? String(contentsOfFile: cluster.folder + "/data/postmaster.pid", encoding: .utf8)) ?? ""
            guard let pid = file.split(separator: "\n").first.flatMap({ Int32($0) }) else {
                throw BenchmarkFailure(message: "no postmaster.pid in \(cluster.folder)/data")
            }
            postmaster = pid
            connection = try PostgresBenchmarks.RawConnection(cluster.conninfo(database: database))
        }

        func sample() throws -> Reading {
            let own = ProcessUsage.current().cpuSeconds
            let wal = try connection.value("SELECT (pg_current_wal_lsn() - '0/0'::pg_lsn)::text")
            return Reading(benchCPU: own, postgresCPU: postgresSeconds(), walPosition: Double(wal) ?? 0)
        }

        func cost(from start: Reading, to end: Reading, writes: Int) -> PostgresWriteCost {
            PostgresWriteCost(writes: writes, benchCPU: end.benchCPU - start.benchCPU, postgresCPU: end.postgresCPU - start.postgresCPU,
                              walBytes: end.walPosition - start.walPosition)
        }

        /// The postmaster's CPU with its reaped children's, plus every living child's.
        private func postgresSeconds() -> Double { ProcessCPU.postgresSeconds(postmaster: postmaster) }
    }
}
