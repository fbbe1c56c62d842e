/// Where a feed delivers what it reads. Called on the feed's thread.
public protocol LocationSink: Sendable {
    /// A new location.
    func receive(_ sample: LocationSample)
    /// The feed's decoder counters changed (cumulative since the feed started).
    func decoderStatistics(_ statistics: DecoderStatistics)
    /// Something worth a log line happened.
    func feedEvent(_ event: FeedEvent)
}
