import FleetConcurrency
/// A running location source: reads its input on the calling thread and hands samples to a sink until
/// the input ends (a finite file) or it is cancelled. Feeds never stop on bad input; they count it.
public protocol LocationFeed: Sendable {
    /// What the feed reads, for logs (`gpsd 127.0.0.1:2947`, `nmea /var/log/gps.log`).
    var description: String { get }
    /// Runs the feed, blocking, until its input ends or `cancellation` fires.
    func run(into sink: any LocationSink, time: any TimeSource, cancellation: Cancellation) -> FeedEnd
}
