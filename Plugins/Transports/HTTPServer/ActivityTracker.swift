import Foundation

/// Counts the requests in flight and holds the open event streams and the parked deferred replies,
/// so that a graceful stop can wait for the first, close the second and answer the third.
final class ActivityTracker: @unchecked Sendable {
    // All state below is guarded by `condition`.
    private let condition = NSCondition()
    private var requestsInFlight = 0
    private var streams: [ObjectIdentifier: EventStream] = [:]
    /// Open streams per client address.
    private var streamsByClient: [String: Int] = [:]
    private var refusesStreams = false
    private var parked: [ObjectIdentifier: DeferredReply] = [:]

    /// A request's headers arrived.
    func requestStarted() {
        condition.lock()
        requestsInFlight += 1
        condition.unlock()
    }

    /// A request was answered and sent, or its connection ended.
    func requestEnded() {
        condition.lock()
        requestsInFlight -= 1
        if requestsInFlight == 0 { condition.broadcast() }
        condition.unlock()
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
        condition.lock()
        defer { condition.unlock() }
        guard !refusesStreams else { return .stopping }
        if let maxStreams, streams.count >= maxStreams { return .serverLimit }
        if let maxPerClient, streamsByClient[client, default: 0] >= maxPerClient { return .clientLimit }
        streams[ObjectIdentifier(stream)] = stream
        streamsByClient[client, default: 0] += 1
        return .added
    }

    /// Forgets a stream whose connection ended.
    func removeStream(_ stream: EventStream, client: String) {
        condition.lock()
        if streams.removeValue(forKey: ObjectIdentifier(stream)) != nil {
            let left = streamsByClient[client, default: 1] - 1
            streamsByClient[client] = left > 0 ? left : nil
        }
        if streams.isEmpty { condition.broadcast() }
        condition.unlock()
    }

    /// A deferred reply's connection was parked to wait for its answer.
    func park(_ reply: DeferredReply) {
        condition.lock()
        parked[ObjectIdentifier(reply)] = reply
        condition.unlock()
    }

    /// A parked reply's answer is being sent.
    func unpark(_ reply: DeferredReply) {
        condition.lock()
        parked[ObjectIdentifier(reply)] = nil
        condition.unlock()
    }

    /// The replies whose connections are parked now.
    var parkedReplies: [DeferredReply] {
        condition.lock()
        defer { condition.unlock() }
        return Array(parked.values)
    }

    /// The streams open now.
    var openStreams: [EventStream] {
        condition.lock()
        defer { condition.unlock() }
        return Array(streams.values)
    }

    /// The number of requests in flight (not counting event streams).
    var requestCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return requestsInFlight
    }

    /// Refuses streams from now on and returns those open now.
    func refuseNewStreams() -> [EventStream] {
        condition.lock()
        defer { condition.unlock() }
        refusesStreams = true
        return Array(streams.values)
    }

    /// Waits until no request is in flight or the deadline passes; true when none is left.
    func waitForRequests(until deadline: ContinuousClock.Instant) -> Bool {
        wait(until: deadline) { $0.requestsInFlight == 0 }
    }

    /// Waits until no stream is open or the deadline passes; true when none is left.
    func waitForStreams(until deadline: ContinuousClock.Instant) -> Bool {
        wait(until: deadline) { $0.streams.isEmpty }
    }

    private func wait(until deadline: ContinuousClock.Instant, for done: (ActivityTracker) -> Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !done(self) {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return false }
            let seconds = Double(remaining.components.seconds) + Double(remaining.components.attoseconds) / 1e18
            _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
        }
        return true
    }
}
