/// What the server knows about one finished request, handed to the access-log hook.
public struct HTTPAccessLogEntry: Sendable, Hashable {
    /// How the exchange ended.
    public enum Outcome: Sendable, Hashable {
        /// The response was sent completely.
        case completed
        /// The client closed the connection or a read or write failed before the end.
        case clientClosed
        /// The connection was idle longer than the configured timeout.
        case timedOut
        /// The server stopped before the exchange ended.
        case serverStopped
    }

    /// The request method.
    public var method: String
    /// The request path as sent (escapes kept, no query).
    public var path: String
    /// The status sent, or 0 when no response was sent.
    public var status: Int
    /// Time from the end of the request headers to the end of the exchange, in milliseconds.
    public var durationMilliseconds: Double
    /// Body bytes handed to the connection (for an event stream: every event written).
    public var bodyBytes: Int
    /// The client's IP address.
    public var remoteAddress: String
    /// How the exchange ended.
    public var outcome: Outcome

    /// An entry from its parts.
    public init(method: String, path: String, status: Int, durationMilliseconds: Double, bodyBytes: Int,
                remoteAddress: String, outcome: Outcome) {
        self.method = method
        self.path = path
        self.status = status
        self.durationMilliseconds = durationMilliseconds
        self.bodyBytes = bodyBytes
        self.remoteAddress = remoteAddress
        self.outcome = outcome
    }

    /// One line: `127.0.0.1 "GET /v1/x" 200 42B 0.31ms`, with the outcome appended unless completed.
    public var line: String {
        let milliseconds = (durationMilliseconds * 100).rounded() / 100
        let ending = outcome == .completed ? "" : " \(outcome)"
        return "\(remoteAddress.isEmpty ? "-" : remoteAddress) \"\(method) \(path)\" \(status) \(bodyBytes)B \(milliseconds)ms\(ending)"
    }

    /// The default hook: writes `line` to standard error in one write.
    @Sendable public static func writeToStandardError(_ entry: HTTPAccessLogEntry) {
        StandardError.write(entry.line)
    }
}
