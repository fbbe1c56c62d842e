import FleetErrors

/// A `FleetError` explained in one line from the catalogue: code, message, retry class and remedy —
/// what the logs and the status file say about a failed update.
public enum ErrorText {
    /// `UNAVAILABLE: The store is busy: … (retry with backoff: the client recovers by itself). Remedy: Retry with backoff; …`
    public static func explained(_ error: FleetError) -> String {
        var text = "\(error.code.name): \(error.message) (\(error.retryClass.advice))"
        if let cause = error.explanation.matchedCauses.first {
            text += ". Remedy: \(cause.remedy)"
        }
        return text
    }

    /// Whether the error is Fleet Engine's "update_mask cannot be empty" (the Driver SDK's sample counts
    /// these apart from other failures).
    public static func isEmptyUpdateMask(_ error: FleetError) -> Bool {
        error.cause == ErrorCause.emptyUpdateMask.id
            || (error.code == .invalidArgument && error.message.lowercased().contains("update_mask cannot be empty"))
    }
}
