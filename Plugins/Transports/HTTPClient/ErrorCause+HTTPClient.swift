import FleetErrors

extension ErrorCause {
    /// DNS failed, the connection was refused, or connecting took longer than the connect timeout.
    /// The request was not sent.
    public static let serverUnreachable = ErrorCause(
        id: "SERVER_UNREACHABLE", code: .unavailable,
        summary: "Could not reach the server",
        remedy: "Check the URL, that the server is running and listening, and the network; the call was not sent, so it is safe to retry.",
        matchPhrases: ["could not resolve host", "couldn't connect to server", "connection timed out"])
    /// The TLS handshake failed (certificate not trusted, wrong host name, protocol error).
    /// The request was not sent.
    public static let tlsHandshakeFailed = ErrorCause(
        id: "TLS_HANDSHAKE_FAILED", code: .unavailable,
        summary: "The TLS handshake with the server failed",
        remedy: "Check that the URL's scheme and port serve TLS, that the system CA store (or the configured CA bundle) trusts the server's certificate, and that the clock is right.",
        matchPhrases: ["tls handshake", "ssl certificate problem", "ssl_connect", "certificate verify failed"])
    /// The connection broke after the request was sent: reset, receive or send error, empty reply,
    /// or a body cut short. The server may have applied the call.
    public static let connectionLost = ErrorCause(
        id: "CONNECTION_LOST", code: .unavailable,
        summary: "The connection to the server was lost during the call",
        remedy: "Retry with backoff; the server may have applied the call, so retry a non-idempotent call only if it is safe to apply twice.",
        matchPhrases: ["connection reset", "recv failure", "empty reply from server", "transfer closed with"])
    /// A stream received nothing (not even a heartbeat) for longer than the stall timeout.
    public static let serverStalled = ErrorCause(
        id: "SERVER_STALLED", code: .unavailable,
        summary: "The server stopped sending",
        remedy: "Reconnect the stream with backoff; the server or the network between is down.",
        matchPhrases: ["operation too slow", "stopped sending"])
    /// The call's time limit passed after the request was sent.
    public static let callDeadlineExceeded = ErrorCause(
        id: "CALL_DEADLINE_EXCEEDED", code: .deadlineExceeded,
        summary: "The call did not finish before its deadline",
        remedy: "Retry with backoff, or allow more time; the server may have applied the call.")
    /// The call's time limit passed while connecting. The request was not sent.
    public static let deadlineExceededWhileConnecting = ErrorCause(
        id: "DEADLINE_EXCEEDED_WHILE_CONNECTING", code: .deadlineExceeded,
        summary: "The call's deadline passed before a connection was made",
        remedy: "Retry with backoff, or allow more time; the call was not sent.")
    /// The request cannot be sent as given: a malformed URL, a scheme other than http or https,
    /// or a header containing CR or LF.
    public static let invalidHTTPRequest = ErrorCause(
        id: "INVALID_HTTP_REQUEST", code: .invalidArgument,
        summary: "The HTTP request is malformed",
        remedy: "Use an absolute http:// or https:// URL and header names and values without line breaks.")
    /// libcurl failed in a way that is none of the above (out of memory, an option it refused, an unknown error).
    public static let httpTransportFailure = ErrorCause(
        id: "HTTP_TRANSPORT_FAILURE", code: .internal,
        summary: "The HTTP client failed",
        remedy: "The message carries libcurl's error; report it if it persists.")
}

/// The error causes HTTPClient reports, in catalogue order: composed into the product's one catalogue
/// where the executables are wired (`ErrorCatalogue.register`), so `error-explain` knows them.
public enum HTTPClientCauses {
    /// Every cause this module reports.
    public static let all: [ErrorCause] = [
        .serverUnreachable, .tlsHandshakeFailed, .connectionLost, .serverStalled, .callDeadlineExceeded, .deadlineExceededWhileConnecting, .invalidHTTPRequest, .httpTransportFailure,
    ]
}
