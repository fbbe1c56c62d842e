/// One event of a `text/event-stream` response, as the WHATWG EventSource rules define it.
public struct ServerSentEvent: Sendable, Hashable {
    /// The event type from the `event:` field; `message` when the event had none.
    public var type: String
    /// The `data:` lines of the event joined with `\n`.
    public var data: String
    /// The last event ID of the stream so far (the latest `id:` field, kept across events);
    /// nil before any, or after an empty `id:` reset it.
    public var lastEventID: String?
    /// The reconnection delay the server asked for most recently with `retry:`, if it did.
    public var reconnectionTime: Duration?

    /// An event from its parts.
    public init(type: String = "message", data: String, lastEventID: String? = nil, reconnectionTime: Duration? = nil) {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
        self.reconnectionTime = reconnectionTime
    }
}
