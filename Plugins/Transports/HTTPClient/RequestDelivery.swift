import FleetErrors

extension FleetError {
    /// The causes after which the HTTP client knows the request never left this machine.
    private static let causesBeforeSending: Set<ErrorCause.ID> = [
        ErrorCause.serverUnreachable.id, ErrorCause.tlsHandshakeFailed.id,
        ErrorCause.deadlineExceededWhileConnecting.id, ErrorCause.invalidHTTPRequest.id,
    ]

    /// Whether the server may have received (and applied) the request that failed with this error.
    ///
    /// False only for transport failures known to happen before sending (unreachable server, TLS
    /// failure, deadline while connecting, malformed request); true for everything else, including
    /// errors the server itself returned. Pass it to `RetryPolicy.shouldRetry`.
    public var requestMayHaveBeenSent: Bool {
        guard let cause else { return true }
        return !Self.causesBeforeSending.contains(cause)
    }
}
