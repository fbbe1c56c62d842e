import Foundation
import Synchronization

/// The server's Prometheus metrics: requests by method and code, request latency, open watches,
/// and store commit latency.
public final class ServerMetrics: Sendable {
    /// Histogram bucket bounds in seconds.
    static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    struct Histogram {
        var counts = [UInt64](repeating: 0, count: ServerMetrics.buckets.count)
        var sum = 0.0
        var total: UInt64 = 0

        mutating func observe(_ seconds: Double) {
            for (i, bound) in ServerMetrics.buckets.enumerated() where seconds <= bound { counts[i] += 1 }
            sum += seconds
            total += 1
        }
    }

    struct State {
        var requests: [String: UInt64] = [:]     // "method\u{0}code"
        var latency: [String: Histogram] = [:]   // by method
        var commits = Histogram()
        var openWatches = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// Counts one finished request.
    public func request(method: String, code: String, seconds: Double) {
        state.withLock { s in
            s.requests[method + "\u{0}" + code, default: 0] += 1
            s.latency[method, default: Histogram()].observe(seconds)
        }
    }

    /// Times one store commit.
    public func commit(seconds: Double) {
        state.withLock { $0.commits.observe(seconds) }
    }

    /// Adjusts the number of open `:watch` streams.
    public func watches(_ delta: Int) {
        state.withLock { $0.openWatches += delta }
    }

    public var openWatches: Int { state.withLock { $0.openWatches } }

    /// The exposition text (Prometheus text format 0.0.4).
    public func render() -> String {
        let s = state.withLock { $0 }
        var out = """
        # HELP fleet_requests_total Fleet Engine calls served, by method and gRPC code.
        # TYPE fleet_requests_total counter

        """
        for key in s.requests.keys.sorted() {
            let parts = key.split(separator: "\u{0}", omittingEmptySubsequences: false)
            out += "fleet_requests_total{method=\"\(parts[0])\",code=\"\(parts[1])\"} \(s.requests[key]!)\n"
        }
        out += """
        # HELP fleet_request_duration_seconds Time to serve a call, by method.
        # TYPE fleet_request_duration_seconds histogram

        """
        for method in s.latency.keys.sorted() {
            out += Self.histogram("fleet_request_duration_seconds", labels: "method=\"\(method)\",", s.latency[method]!)
        }
        out += """
        # HELP fleet_store_commit_duration_seconds Time for the store to commit (and sync) a write.
        # TYPE fleet_store_commit_duration_seconds histogram

        """
        out += Self.histogram("fleet_store_commit_duration_seconds", labels: "", s.commits)
        out += """
        # HELP fleet_open_watches Open :watch event streams.
        # TYPE fleet_open_watches gauge
        fleet_open_watches \(s.openWatches)

        """
        return out
    }

    static func histogram(_ name: String, labels: String, _ h: Histogram) -> String {
        var out = ""
        for (i, bound) in buckets.enumerated() {
            out += "\(name)_bucket{\(labels)le=\"\(bound)\"} \(h.counts[i])\n"
        }
        out += "\(name)_bucket{\(labels)le=\"+Inf\"} \(h.total)\n"
        let bare = labels.isEmpty ? "" : "{\(labels.dropLast())}"
        out += "\(name)_sum\(bare) \(h.sum)\n\(name)_count\(bare) \(h.total)\n"
        return out
    }
}
