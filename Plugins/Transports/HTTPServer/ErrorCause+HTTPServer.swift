import FleetErrors

extension ErrorCause {
    /// A request body larger than the server accepts (sent as HTTP 413).
    public static let requestBodyTooLarge = ErrorCause(
        id: "REQUEST_BODY_TOO_LARGE", code: .resourceExhausted,
        summary: "The request body is larger than the server accepts",
        remedy: "Send a smaller body, or raise the server's body size limit.")
    /// One event stream more than the server allows, in all or per client address (sent as HTTP 429).
    public static let tooManyStreams = ErrorCause(
        id: "TOO_MANY_WATCHES", code: .resourceExhausted,
        summary: "Too many event streams (:watch) are open",
        remedy: "Close watches you no longer read, or share one watch per trip; the server's limits are --max-watches and --max-watches-per-client.",
        matchPhrases: ["too many event streams", "too many watches"])
    /// A request the HTTP layer refuses: conflicting or repeated header fields, no Host (HTTP 400).
    public static let badHTTPRequest = ErrorCause(
        id: "BAD_HTTP_REQUEST", code: .invalidArgument,
        summary: "The HTTP request is malformed",
        remedy: "Send one Host field (required in HTTP/1.1), at most one Authorization field, and one Content-Length value.",
        matchPhrases: ["content-length values", "without a host", "authorization fields"])
    /// A listen address that is neither an IP literal nor `localhost`, or a port out of range.
    public static let badListenAddress = ErrorCause(
        id: "BAD_LISTEN_ADDRESS", code: .invalidArgument,
        summary: "The listen address is not valid",
        remedy: "Give an IPv4 or IPv6 literal (127.0.0.1, ::1, 0.0.0.0) or localhost, and a port from 0 to 65535.")
}

/// The error causes HTTPServer reports, in catalogue order: composed into the product's one catalogue
/// where the executables are wired (`ErrorCatalogue.register`), so `error-explain` knows them.
public enum HTTPServerCauses {
    /// Every cause this module reports.
    public static let all: [ErrorCause] = [
        .requestBodyTooLarge, .tooManyStreams, .badHTTPRequest, .badListenAddress,
    ]
}
