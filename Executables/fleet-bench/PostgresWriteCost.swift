import Foundation

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

    /// "bench 41 µs + PostgreSQL 88 µs CPU, 212 B of WAL per write".
    var perWrite: String {
        let n = Double(max(1, writes))
        return String(format: "CPU per write: this process %.0f µs + PostgreSQL %.0f µs = %.0f µs; WAL %.0f B per write",
                      benchCPU / n * 1e6, postgresCPU / n * 1e6, (benchCPU + postgresCPU) / n * 1e6, walBytes / n)
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

        init(cluster: BenchCluster, database: String) throws {
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

        /// The postmaster's CPU with its reaped children's, plus every living child's (fields 14–17
        /// of `/proc/PID/stat`, in clock ticks).
        private func postgresSeconds() -> Double {
            let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
            var total = 0.0
            if let fields = Self.statFields(postmaster) { total += fields[11...14].compactMap { Double($0) }.reduce(0, +) }
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
                guard let pid = Int32(entry), pid != postmaster, let fields = Self.statFields(pid), fields.count > 14,
                      Int32(fields[1]) == postmaster else { continue }
                total += fields[11...12].compactMap { Double($0) }.reduce(0, +)
            }
            return total / ticks
        }

        /// The CPU seconds of process `pid` (utime and stime of `/proc/PID/stat`), nil when it is gone.
        static func cpuSeconds(of pid: Int32) -> Double? {
            guard let fields = statFields(pid), fields.count > 12 else { return nil }
            return fields[11...12].compactMap { Double($0) }.reduce(0, +) / Double(sysconf(Int32(_SC_CLK_TCK)))
        }

        /// The fields of `/proc/PID/stat` after the command's closing parenthesis: [0] is the state,
        /// [1] the parent, [11] utime, [12] stime, [13] cutime, [14] cstime.
        private static func statFields(_ pid: Int32) -> [Substring]? {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = text.lastIndex(of: ")") else { return nil }
            return text[text.index(after: close)...].split(separator: " ")
        }
    }
}
