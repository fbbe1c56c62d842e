import FleetModel
import FleetConcurrency

/// Replays recorded samples (a GPX track, an NMEA log, a CSV or JSON Lines file) at the pace they were
/// recorded, faster with a sped-up time source: the wait between two samples is the difference of their
/// times, at most `maximumGapSeconds` (a receiver that lost its fix for an hour does not stall the
/// replay), or `secondsWithoutTimes` when a sample has no time. Samples are re-stamped with the replay's
/// time so the vehicle looks live; their order and spacing are kept.
public struct ReplayFeed: LocationFeed {
    /// What is replayed, for logs.
    public let description: String
    /// The samples, in file order.
    public let samples: [LocationSample]
    /// The decoder's counters for the whole file, reported once at the start.
    public let statistics: DecoderStatistics
    /// The longest wait between two samples, seconds of feed time.
    public let maximumGapSeconds: Double
    /// The wait after a sample without a time, seconds of feed time.
    public let secondsWithoutTimes: Double

    /// A replay of `samples`.
    public init(description: String, samples: [LocationSample], statistics: DecoderStatistics = DecoderStatistics(),
                maximumGapSeconds: Double = 60, secondsWithoutTimes: Double = 1) {
        self.description = description
        self.samples = samples
        self.statistics = statistics
        self.maximumGapSeconds = maximumGapSeconds
        self.secondsWithoutTimes = secondsWithoutTimes
    }

    /// Seconds from the start of the replay to each sample (non-decreasing).
    public var offsets: [Double] {
        var result: [Double] = []
        result.reserveCapacity(samples.count)
        var previous: (offset: Double, time: Double?)?
        for sample in samples {
            let time = sample.time?.timeIntervalSince1970
            guard let last = previous else {
                previous = (0, time)
                result.append(0)
                continue
            }
            var step = secondsWithoutTimes
            if let time, let lastTime = last.time { step = min(maximumGapSeconds, max(0, time - lastTime)) }
            let offset = last.offset + step
            result.append(offset)
            previous = (offset, time ?? last.time.map { $0 + step })
        }
        return result
    }

    /// Runs the feed on the calling thread until its input ends or it is cancelled.
    public func run(into sink: any LocationSink, time: any TimeSource, cancellation: Cancellation) -> FeedEnd {
        sink.decoderStatistics(statistics)
        let offsets = self.offsets
        sink.feedEvent(.replaying(samples: samples.count, seconds: offsets.last ?? 0))
        let start = time.now()
        for (sample, offset) in zip(samples, offsets) {
            while !cancellation.isCancelled, time.now() < start + offset {
                _ = time.wait(until: start + offset, wakeup: cancellation.wakeup)
            }
            if cancellation.isCancelled { return .cancelled }
            var stamped = sample
            stamped.time = Timestamp(timeIntervalSince1970: start + offset)
            sink.receive(stamped)
        }
        return .finished
    }
}
