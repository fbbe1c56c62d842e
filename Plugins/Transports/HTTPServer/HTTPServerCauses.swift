import FleetErrors

// Causes the HTTP server reports; to be moved into the catalogue (Causes.swift) by its owner.
extension ErrorCause {
    /// A request body larger than the server accepts (sent as HTTP 413).
    public static let requestBodyTooLarge = ErrorCause(
        id: "REQUEST_BODY_TOO_LARGE", code: .resourceExhausted,
        summary: "The request body is larger than the server accepts",
        remedy: "Send a smaller body, or raise the server's body size limit.")
    /// A listen address that is neither an IP literal nor `localhost`, or a port out of range.
    public static let badListenAddress = ErrorCause(
        id: "BAD_LISTEN_ADDRESS", code: .invalidArgument,
        summary: "The listen address is not valid",
        remedy: "Give an IPv4 or IPv6 literal (127.0.0.1, ::1, 0.0.0.0) or localhost, and a port from 0 to 65535.")
    /// The HTTP server could not start listening (address in use, no permission, no such address).
    public static let listenFailed = ErrorCause(
        id: "LISTEN_FAILED", code: .unavailable,
        summary: "The HTTP server could not listen on the address",
        remedy: "Check that no other process uses the port, that the address belongs to this machine, and that ports below 1024 are allowed.")
}
