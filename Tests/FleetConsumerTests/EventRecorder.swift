import FleetConsumer
import Foundation
import Synchronization

/// Collects a follower's updates from whatever thread it runs on; tests wait for a count of events.
final class EventRecorder: Sendable {
    private let updates = Mutex<[TripUpdate]>([])
    private let condition = NSCondition()

    /// Records an update (the follower's `onUpdate`).
    func record(_ update: TripUpdate) {
        updates.withLock { $0.append(update) }
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    var allUpdates: [TripUpdate] { updates.withLock { $0 } }
    var events: [TripEvent] { allUpdates.flatMap(\.events) }
    var kinds: [TripEventKind] { events.map(\.kind) }
    var jsonLines: [String] { events.map(\.jsonLine) }

    /// The number of events of `kind` so far.
    func count(_ kind: TripEventKind) -> Int { events.filter { $0.kind == kind }.count }

    /// Waits (at most `timeout` seconds of real time, a safety net) until `condition` holds for the events.
    @discardableResult
    func wait(timeout: Double = 20, until predicate: ([TripEvent]) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(events) {
            if !condition.wait(until: deadline) { return predicate(events) }
        }
        return true
    }
}

/// Runs a blocking follower on a thread of its own and hands back its outcome.
final class FollowerThread: Sendable {
    private let outcome = Mutex<FollowOutcome?>(nil)
    private let done = DispatchSemaphore(value: 0)
    let stop = StopSignal()

    init(_ follower: TripFollower, recorder: EventRecorder) {
        let thread = Thread { [self] in
            let ending = follower.follow(stop: stop) { recorder.record($0) }
            outcome.withLock { $0 = ending }
            done.signal()
        }
        thread.start()
    }

    /// The outcome, once the follower returned (waiting at most `timeout` seconds of real time).
    func result(timeout: Double = 20) -> FollowOutcome? {
        guard done.wait(timeout: .now() + timeout) == .success else { return nil }
        return outcome.withLock { $0 }
    }
}
