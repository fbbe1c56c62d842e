import FleetErrors

/// How a feed ended.
public enum FeedEnd: Sendable, Hashable {
    /// The input ended (a file was fully read, standard input closed, a simulated drive arrived).
    case finished
    /// `cancel()` stopped it.
    case cancelled
    /// It cannot go on (the file vanished); the error says why.
    case failed(FleetError)
}
