import FleetAuth
import FleetConcurrency
import FleetErrors
import FleetInterface
import Foundation
import Synchronization

/// The server's Prometheus metrics: requests by method and code, request latency, open watches,
/// and store commit latency.
///
/// Every request of every server thread counts itself, so the counters are sharded: a thread adds
/// to the shard its ID picks (no lock is contended in the common case), and `render()` adds the
/// shards up. Methods and codes are indices into flat arrays, not strings.
public final class ServerMetrics: Sendable {
    /// Histogram bucket bounds in seconds.
    static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    /// The methods counted: Fleet Engine's, then "unknown" (a request that never named one).
    static let methodNames: [String] = FleetMethod.allCases.map(\.rawValue) + ["unknown"]
    static let codeCount = GRPCCode.allCases.count
    static let shardCount = 16

    /// Per-bucket counts (not cumulative: `render()` accumulates), their sum and number.
    struct Histogram {
        var counts = [UInt64](repeating: 0, count: ServerMetrics.buckets.count + 1)  // last: +Inf
        var sum = 0.0
        var total: UInt64 = 0

        mutating func observe(_ seconds: Double) {
            let bucket = ServerMetrics.buckets.firstIndex { seconds <= $0 } ?? ServerMetrics.buckets.count
            counts[bucket] += 1
            sum += seconds
            total += 1
        }

        mutating func add(_ other: Histogram) {
            for i in counts.indices { counts[i] += other.counts[i] }
            sum += other.sum
            total += other.total
        }
    }

    struct Counters {
        /// Requests by `method * codeCount + code`.
        var requests = [UInt64](repeating: 0, count: ServerMetrics.methodNames.count * ServerMetrics.codeCount)
        /// Latency by method index.
        var latency = [Histogram](repeating: Histogram(), count: ServerMetrics.methodNames.count)
        var commits = Histogram()
        /// The gRPC share of `requests`, by the same index.
        var grpcRequests = [UInt64](repeating: 0, count: ServerMetrics.methodNames.count * ServerMetrics.codeCount)

        mutating func add(_ other: Counters) {
            for i in requests.indices { requests[i] += other.requests[i] }
            for i in grpcRequests.indices { grpcRequests[i] += other.grpcRequests[i] }
            for i in latency.indices { latency[i].add(other.latency[i]) }
            commits.add(other.commits)
        }
    }

    final class Shard: Sendable {
        let counters = Mutex(Counters())
    }

    private let shards = (0..<ServerMetrics.shardCount).map { _ in Shard() }
    private let watchCount = Atomic<Int>(0)
    /// Exposition text of what the served implementation measures of itself (the engine's learned tables),
    /// appended to the server's own.
    private let sources = Mutex<[@Sendable () -> String]>([])

    public init() {}

    /// Appends `source`'s text to every exposition from now on.
    public func addSource(_ source: @escaping @Sendable () -> String) {
        sources.withLock { $0.append(source) }
    }

    /// Counts one finished request; `method` nil for a request that named none; `grpc` when it came
    /// over gRPC (counted in the totals and, apart, in `fleet_grpc_requests_total`).
    public func request(method: FleetMethod?, code: GRPCCode, seconds: Double, grpc: Bool = false) {
        let index = method.flatMap { FleetMethod.allCases.firstIndex(of: $0) } ?? Self.methodNames.count - 1
        let slot = index * Self.codeCount + Int(code.rawValue)
        shard.counters.withLock { counters in
            counters.requests[slot] += 1
            if grpc { counters.grpcRequests[slot] += 1 }
            counters.latency[index].observe(seconds)
        }
    }

    /// Times one store commit.
    public func commit(seconds: Double) {
        shard.counters.withLock { $0.commits.observe(seconds) }
    }

    /// Adjusts the number of open `:watch` streams.
    public func watches(_ delta: Int) {
        watchCount.add(delta, ordering: .relaxed)
    }

    public var openWatches: Int { watchCount.load(ordering: .relaxed) }

    /// The shard of the calling thread.
    private var shard: Shard {
        let id = UInt64(ThreadID.current.rawValue)
        return shards[Int((id &* 0x9E37_79B9_7F4A_7C15) >> 60) % Self.shardCount]
    }

    /// The exposition text (Prometheus text format 0.0.4).
    public func render() -> String {
        var s = Counters()
        for shard in shards { s.add(shard.counters.withLock { $0 }) }
        let methods = Self.methodNames.indices.sorted { Self.methodNames[$0] < Self.methodNames[$1] }
        let codes = GRPCCode.allCases.sorted { $0.name < $1.name }
        var out = ""
        /// A counter by method and gRPC code, only the non-zero cells.
        func byMethodAndCode(_ name: String, help: String, _ counts: [UInt64]) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) counter\n"
            for method in methods {
                for code in codes {
                    let count = counts[method * Self.codeCount + Int(code.rawValue)]
                    guard count > 0 else { continue }
                    out += "\(name){method=\"\(Self.methodNames[method])\",code=\"\(code.name)\"} \(count)\n"
                }
            }
        }
        byMethodAndCode("fleet_requests_total", help: "Fleet Engine calls served, by method and gRPC code.", s.requests)
        byMethodAndCode("fleet_grpc_requests_total",
                        help: "Fleet Engine calls served over gRPC (also counted in fleet_requests_total), by method and gRPC code.",
                        s.grpcRequests)
        out += """
        # HELP fleet_request_duration_seconds Time to serve a call, by method.
        # TYPE fleet_request_duration_seconds histogram

        """
        for method in methods where s.latency[method].total > 0 {
            out += Self.histogram("fleet_request_duration_seconds", labels: "method=\"\(Self.methodNames[method])\",", s.latency[method])
        }
        out += """
        # HELP fleet_store_commit_duration_seconds Time for the store to commit (and sync) a write.
        # TYPE fleet_store_commit_duration_seconds histogram

        """
        out += Self.histogram("fleet_store_commit_duration_seconds", labels: "", s.commits)
        out += """
        # HELP fleet_open_watches Open :watch event streams.
        # TYPE fleet_open_watches gauge
        fleet_open_watches \(openWatches)

        """
        for source in sources.withLock({ $0 }) { out += source() }
        return out
    }

    static func histogram(_ name: String, labels: String, _ h: Histogram) -> String {
        var out = ""
        var cumulative: UInt64 = 0
        for (i, bound) in buckets.enumerated() {
            cumulative += h.counts[i]
            out += "\(name)_bucket{\(labels)le=\"\(bound)\"} \(cumulative)\n"
        }
        out += "\(name)_bucket{\(labels)le=\"+Inf\"} \(h.total)\n"
        let bare = labels.isEmpty ? "" : "{\(labels.dropLast())}"
        out += "\(name)_sum\(bare) \(h.sum)\n\(name)_count\(bare) \(h.total)\n"
        return out
    }
}
