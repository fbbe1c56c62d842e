/// Things a feed reports besides locations.
public enum FeedEvent: Sendable, Hashable {
    /// Connected to a server (gpsd).
    case connected(String)
    /// Lost or could not make a connection; `retryInSeconds` is the wait (in the feed's time) before trying again.
    case disconnected(String, retryInSeconds: Double)
    /// A line could not be used; `problem` says why.
    case badInput(String)
    /// A replay began: how many samples over how many seconds (of the feed's time).
    case replaying(samples: Int, seconds: Double)
}
