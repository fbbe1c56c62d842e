/// What a handler answers: a complete response, or an event stream that stays open.
public enum HTTPReply: Sendable {
    /// A complete response.
    case response(HTTPResponse)
    /// A `text/event-stream` reply, written to by the application until it or the client closes it.
    case eventStream(EventStream)
}
