/// Why `HTTPClient.stream` returned. Transport failures are thrown as `FleetError` instead.
public enum StreamFinishReason: Sendable {
    /// The server ended the response normally.
    case endOfStream
    /// The event handler returned `.stop`.
    case stoppedByHandler
    /// `Cancellation.cancel()` was called.
    case cancelled
    /// The server answered with a non-2xx status; the response carries its body (Google's error JSON)
    /// for the caller to turn into a `FleetError`. No event was delivered.
    case rejected(HTTPClientResponse)
}
