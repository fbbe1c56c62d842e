import Synchronization

/// The calls each connection has open on the server, by the core's name for the connection's peer
/// (`ipv4:127.0.0.1:40312`: an address and port, so one name a connection while it is open).
///
/// gRPC 1.51's core refuses a stream past `SETTINGS_MAX_CONCURRENT_STREAMS` only once the client
/// has acknowledged the setting: a client that never does can open streams without end, and each
/// holds a call in the core (about 11 KB for a stream with its headers and no message). Counting
/// the calls the core hands over, and cancelling those past the limit at once, bounds what the
/// server holds for them; the first call past the limit also has the connection closed
/// (`Admission.refusedClosing`), which stops the core from making calls for the streams it has
/// not read yet.
final class ConnectionCalls: Sendable {
    /// What `admit(_:)` decided for a call.
    enum Admission: Equatable {
        /// Counted against its connection.
        case admitted
        /// Past its connection's limit: to be cancelled.
        case refused
        /// The first call past its connection's limit: to be cancelled, and the connection closed.
        case refusedClosing
    }

    /// A connection's calls open, and whether it went past the limit.
    private struct Connection {
        var open = 0
        var isOverLimit = false
    }

    /// The streams a connection may have open as the server advertises them
    /// (`SETTINGS_MAX_CONCURRENT_STREAMS`).
    let maxConcurrentStreams: Int
    /// The most calls one connection may have open: twice the advertised streams, since a call
    /// whose client already has its answer counts until the server takes its last completion.
    var limit: Int { 2 * maxConcurrentStreams }
    private let connections = Mutex<[String: Connection]>([:])
    private let refusedCalls = Atomic<Int>(0)
    private let closedConnections = Atomic<Int>(0)

    init(maxConcurrentStreams: Int) {
        self.maxConcurrentStreams = max(1, maxConcurrentStreams)
    }

    /// Counts a call of `peer`'s connection unless it already has `limit`; the first call refused
    /// on a connection is `.refusedClosing`, those after it `.refused`.
    func admit(_ peer: String) -> Admission {
        connections.withLock { connections in
            var connection = connections[peer, default: Connection()]
            guard connection.open < limit else {
                refusedCalls.add(1, ordering: .relaxed)
                if connection.isOverLimit { return .refused }
                connection.isOverLimit = true
                connections[peer] = connection
                closedConnections.add(1, ordering: .relaxed)
                return .refusedClosing
            }
            connection.open += 1
            connections[peer] = connection
            return .admitted
        }
    }

    /// The calls refused so far, over all connections.
    var refused: Int { refusedCalls.load(ordering: .relaxed) }

    /// The connections that went past the limit so far.
    var closed: Int { closedConnections.load(ordering: .relaxed) }

    /// Counts out a call `admit(_:)` counted.
    func release(_ peer: String) {
        connections.withLock { connections in
            guard var connection = connections[peer] else { return }
            connection.open -= 1
            connections[peer] = connection.open > 0 ? connection : nil
        }
    }
}
