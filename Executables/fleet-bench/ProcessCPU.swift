import Foundation

/// CPU time of other processes of a run (the server nodes, PostgreSQL's), read from
/// `/proc/PID/stat`, so that a row can say what one call cost each of them and a reader can tell
/// a load bound by the machine's CPU from one that left it idle.
enum ProcessCPU {
    /// User and system CPU of `pid` so far, in seconds; 0 once it is gone.
    static func seconds(_ pid: Int32) -> Double {
        guard let fields = statFields(pid), fields.count > 12 else { return 0 }
        return fields[11...12].compactMap { Double($0) }.reduce(0, +) / ticksPerSecond
    }

    /// A PostgreSQL server's CPU so far, in seconds: its postmaster's with its reaped children's,
    /// plus every living child's (backends, WAL writer, checkpointer…).
    static func postgresSeconds(postmaster: Int32) -> Double {
        var ticks = 0.0
        if let fields = statFields(postmaster), fields.count > 14 { ticks += fields[11...14].compactMap { Double($0) }.reduce(0, +) }
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), pid != postmaster, let fields = statFields(pid), fields.count > 12,
                  Int32(fields[1]) == postmaster else { continue }
            ticks += fields[11...12].compactMap { Double($0) }.reduce(0, +)
        }
        return ticks / ticksPerSecond
    }

    /// User and system CPU of each thread of `pid` so far, in seconds, by thread ID.
    static func threadSeconds(_ pid: Int32) -> [Int32: Double] {
        var threads: [Int32: Double] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? [] {
            guard let thread = Int32(entry), let fields = statFields(atPath: "/proc/\(pid)/task/\(thread)/stat"), fields.count > 12 else { continue }
            threads[thread] = fields[11...12].compactMap { Double($0) }.reduce(0, +) / ticksPerSecond
        }
        return threads
    }

    /// The share of `pid`'s CPU between two `threadSeconds` readings that its busiest thread spent.
    static func busiestThreadShare(from start: [Int32: Double], to end: [Int32: Double]) -> Double {
        let spent = end.map { $0.value - (start[$0.key] ?? 0) }
        let total = spent.reduce(0, +)
        return total > 0 ? (spent.max() ?? 0) / total : 0
    }

    /// User and system CPU of this process's children that ended and were waited for, in seconds:
    /// across a load, what its wrk processes spent.
    static func endedChildrenSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    private static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// The fields of `/proc/PID/stat` after the command's closing parenthesis: [0] is the state,
    /// [1] the parent, [11] utime, [12] stime, [13] cutime, [14] cstime.
    static func statFields(_ pid: Int32) -> [Substring]? { statFields(atPath: "/proc/\(pid)/stat") }

    /// The fields of a `stat` file (a process's or a thread's), as `statFields(_:)`.
    static func statFields(atPath path: String) -> [Substring]? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ")
    }
}
