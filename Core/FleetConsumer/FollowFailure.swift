import FleetErrors

/// A failed refresh as the follower reports it (the SDK's "update failed with error"): the error, how
/// it is classified, the catalogue's cause and remedy, and what the follower does next.
///
/// Classification follows the Consumer SDK guide through `FleetError.retryClass`: server and network
/// errors (ABORTED, CANCELLED, DEADLINE_EXCEEDED, UNAVAILABLE) are `recovering` — the follower retries
/// with backoff by itself; every other code is a client error that needs action.
public struct FollowFailure: Sendable, Hashable {
    /// The error the source threw.
    public var error: FleetError
    /// Whether the follower recovers from it by itself (a server or network error).
    public var isRecovering: Bool
    /// How long the follower waits before trying again; nil when it gives up (`--fail-fast`).
    public var retryInSeconds: Double?
    /// How many refreshes in a row have failed, this one included.
    public var attempt: Int
    /// The catalogue cause's ID (`TRIP_NOT_FOUND`), when the error names one or its message matches one.
    public var causeID: String?
    /// What went wrong, in the catalogue's words.
    public var cause: String
    /// What to do about it, in the catalogue's words.
    public var remedy: String

    /// Classifies `error` and looks its cause and remedy up in the catalogue: the error's own cause,
    /// else the cause its message points to, else the most common cause of its code, else the code's
    /// description and retry advice.
    public init(error: FleetError, retryInSeconds: Double?, attempt: Int) {
        self.error = error
        self.isRecovering = error.retryClass.isRetryable
        self.retryInSeconds = retryInSeconds
        self.attempt = attempt
        let explanation = error.explanation
        if let found = explanation.matchedCauses.first ?? explanation.entry.causes.first {
            causeID = found.id
            cause = found.summary
            remedy = found.remedy
        } else {
            causeID = nil
            cause = explanation.entry.description
            remedy = explanation.entry.retryClass.advice
        }
    }
}
