import Synchronization

/// The calls each connection has open on the server, by the core's name for the connection's peer
/// (`ipv4:127.0.0.1:40312`: an address and port, so one name a connection while it is open).
///
/// gRPC 1.51's core refuses a stream past `SETTINGS_MAX_CONCURRENT_STREAMS` only once the client
/// has acknowledged the setting: a client that never does can open streams without end, and each
/// holds a call in the core (about 11 KB for a stream with its headers and no message). Counting
/// the calls the core hands over, and cancelling those past the limit at once, bounds that.
final class ConnectionCalls: Sendable {
    /// The streams a connection may have open as the server advertises them
    /// (`SETTINGS_MAX_CONCURRENT_STREAMS`).
    let maxConcurrentStreams: Int
    /// The most calls one connection may have open: twice the advertised streams, since a call
    /// whose client already has its answer counts until the server takes its last completion.
    var limit: Int { 2 * maxConcurrentStreams }
    private let counts = Mutex<[String: Int]>([:])
    private let refusedCalls = Atomic<Int>(0)

    init(maxConcurrentStreams: Int) {
        self.maxConcurrentStreams = max(1, maxConcurrentStreams)
    }

    /// Counts a call of `peer`'s connection; false, counting nothing, when it already has `limit`.
    func admit(_ peer: String) -> Bool {
        counts.withLock { counts in
            let open = counts[peer, default: 0]
            guard open < limit else {
                refusedCalls.add(1, ordering: .relaxed)
                return false
            }
            counts[peer] = open + 1
            return true
        }
    }

    /// The calls refused so far, over all connections.
    var refused: Int { refusedCalls.load(ordering: .relaxed) }

    /// Counts out a call `admit(_:)` counted.
    func release(_ peer: String) {
        counts.withLock { counts in
            let open = counts[peer, default: 0]
            counts[peer] = open > 1 ? open - 1 : nil
        }
    }
}
