import FleetConcurrency

/// Counts the requests in flight and holds the open event streams and the parked deferred replies,
/// so that a graceful stop can wait for the first, close the second and answer the third.
final class ActivityTracker: @unchecked Sendable {
    private struct Activity {
        var requestsInFlight = 0
        var streams: [ObjectIdentifier: EventStream] = [:]
        /// Open streams per client address.
        var streamsByClient: [String: Int] = [:]
        var refusesStreams = false
        var parked: [ObjectIdentifier: DeferredReply] = [:]
    }

    /// A stop waits on it for the requests to end and the streams to close.
    private let activity = WaitableState(Activity())

    /// A request's headers arrived.
    func requestStarted() {
        activity.withLock { $0.requestsInFlight += 1 }
    }

    /// A request was answered and sent, or its connection ended.
    func requestEnded() {
        activity.update { $0.requestsInFlight -= 1 }
    }

    /// Whether a stream was taken on.
    enum StreamAdmission: Equatable {
        case added
        /// The server is stopping.
        case stopping
        /// As many streams as the server allows are open.
        case serverLimit
        /// As many streams as one client address may hold are open for this one.
        case clientLimit
    }

    /// Registers a stream being sent for `client`, unless the server is stopping or a limit
    /// (nil for none) is reached; the stream is added only when the answer is `.added`.
    func addStream(_ stream: EventStream, client: String, maxStreams: Int?, maxPerClient: Int?) -> StreamAdmission {
        activity.withLock { activity in
            guard !activity.refusesStreams else { return .stopping }
            if let maxStreams, activity.streams.count >= maxStreams { return .serverLimit }
            if let maxPerClient, activity.streamsByClient[client, default: 0] >= maxPerClient { return .clientLimit }
            activity.streams[ObjectIdentifier(stream)] = stream
            activity.streamsByClient[client, default: 0] += 1
            return .added
        }
    }

    /// Forgets a stream whose connection ended.
    func removeStream(_ stream: EventStream, client: String) {
        activity.update { activity in
            if activity.streams.removeValue(forKey: ObjectIdentifier(stream)) != nil {
                let left = activity.streamsByClient[client, default: 1] - 1
                activity.streamsByClient[client] = left > 0 ? left : nil
            }
        }
    }

    /// A deferred reply's connection was parked to wait for its answer.
    func park(_ reply: DeferredReply) {
        activity.withLock { $0.parked[ObjectIdentifier(reply)] = reply }
    }

    /// A parked reply's answer is being sent.
    func unpark(_ reply: DeferredReply) {
        activity.withLock { $0.parked[ObjectIdentifier(reply)] = nil }
    }

    /// The replies whose connections are parked now.
    var parkedReplies: [DeferredReply] {
        activity.withLock { Array($0.parked.values) }
    }

    /// The streams open now.
    var openStreams: [EventStream] {
        activity.withLock { Array($0.streams.values) }
    }

    /// The number of requests in flight (not counting event streams).
    var requestCount: Int {
        activity.withLock { $0.requestsInFlight }
    }

    /// Refuses streams from now on and returns those open now.
    func refuseNewStreams() -> [EventStream] {
        activity.withLock { activity in
            activity.refusesStreams = true
            return Array(activity.streams.values)
        }
    }

    /// Waits until no request is in flight or the deadline passes; true when none is left.
    func waitForRequests(until deadline: ContinuousClock.Instant) -> Bool {
        activity.wait(until: { $0.requestsInFlight == 0 }, deadline: deadline)
    }

    /// Waits until no stream is open or the deadline passes; true when none is left.
    func waitForStreams(until deadline: ContinuousClock.Instant) -> Bool {
        activity.wait(until: { $0.streams.isEmpty }, deadline: deadline)
    }
}
