/// What a handler answers: a complete response, one given later, or an event stream that stays open.
public enum HTTPReply: Sendable {
    /// A complete response.
    case response(HTTPResponse)
    /// A response the application completes later from any thread; the connection waits parked.
    case deferred(DeferredReply)
    /// A `text/event-stream` reply, written to by the application until it or the client closes it.
    case eventStream(EventStream)
}
