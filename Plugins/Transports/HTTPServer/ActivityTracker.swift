import FleetConcurrency
import Synchronization

/// Counts the requests in flight and holds the open event streams and the parked deferred replies,
/// so that a graceful stop can wait for the first, close the second and answer the third.
///
/// Every request passes here twice, on every server thread, so the request count is an atomic: one
/// lock shared by all threads was taken on every request, with a condition broadcast each time.
/// Parked replies (deferred writes only) keep a lock of their own; streams, rare and long-lived, one
/// that a stop can wait on.
final class ActivityTracker: Sendable {
    private struct Streams {
        var open: [ObjectIdentifier: EventStream] = [:]
        /// Open streams per client address.
        var byClient: [String: Int] = [:]
        var refused = false
    }

    /// A stop waits on it for the streams to close, and for the requests to end (`requestsInFlight`).
    private let streams = WaitableState(Streams())
    private let requestsInFlight = Atomic<Int>(0)
    /// Threads in `waitForRequests`: only while there are any does the last request ending wake them.
    private let requestWaiters = Atomic<Int>(0)
    private let parked = Mutex<[ObjectIdentifier: DeferredReply]>([:])

    /// A request's headers arrived.
    func requestStarted() {
        requestsInFlight.add(1, ordering: .sequentiallyConsistent)
    }

    /// A request was answered and sent, or its connection ended.
    func requestEnded() {
        let left = requestsInFlight.subtract(1, ordering: .sequentiallyConsistent).newValue
        // Paired with `waitForRequests`, which announces itself before it reads the count: either
        // it sees 0 or this sees it waiting (both orderings are sequentially consistent).
        if left == 0 && requestWaiters.load(ordering: .sequentiallyConsistent) > 0 {
            streams.wakeWaiters()
        }
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
        streams.withLock { streams in
            guard !streams.refused else { return .stopping }
            if let maxStreams, streams.open.count >= maxStreams { return .serverLimit }
            if let maxPerClient, streams.byClient[client, default: 0] >= maxPerClient { return .clientLimit }
            streams.open[ObjectIdentifier(stream)] = stream
            streams.byClient[client, default: 0] += 1
            return .added
        }
    }

    /// Forgets a stream whose connection ended.
    func removeStream(_ stream: EventStream, client: String) {
        streams.update { streams in
            if streams.open.removeValue(forKey: ObjectIdentifier(stream)) != nil {
                let left = streams.byClient[client, default: 1] - 1
                streams.byClient[client] = left > 0 ? left : nil
            }
        }
    }

    /// A deferred reply's connection was parked to wait for its answer.
    func park(_ reply: DeferredReply) {
        parked.withLock { $0[ObjectIdentifier(reply)] = reply }
    }

    /// A parked reply's answer is being sent.
    func unpark(_ reply: DeferredReply) {
        parked.withLock { $0[ObjectIdentifier(reply)] = nil }
    }

    /// The replies whose connections are parked now.
    var parkedReplies: [DeferredReply] {
        parked.withLock { Array($0.values) }
    }

    /// The streams open now.
    var openStreams: [EventStream] {
        streams.withLock { Array($0.open.values) }
    }

    /// The number of requests in flight (not counting event streams).
    var requestCount: Int {
        requestsInFlight.load(ordering: .sequentiallyConsistent)
    }

    /// Refuses streams from now on and returns those open now.
    func refuseNewStreams() -> [EventStream] {
        streams.withLock { streams in
            streams.refused = true
            return Array(streams.open.values)
        }
    }

    /// Waits until no request is in flight or the deadline passes; true when none is left.
    func waitForRequests(until deadline: ContinuousClock.Instant) -> Bool {
        requestWaiters.add(1, ordering: .sequentiallyConsistent)
        defer { requestWaiters.subtract(1, ordering: .sequentiallyConsistent) }
        return streams.wait(until: { _ in self.requestsInFlight.load(ordering: .sequentiallyConsistent) == 0 },
                            deadline: deadline)
    }

    /// Waits until no stream is open or the deadline passes; true when none is left.
    func waitForStreams(until deadline: ContinuousClock.Instant) -> Bool {
        streams.wait(until: { $0.open.isEmpty }, deadline: deadline)
    }
}
