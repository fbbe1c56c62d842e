@testable import FleetEngine
import FleetErrors
import FleetInterface
import FleetModel
import Foundation
import Synchronization

/// Collects what an observation delivers (trips, tasks, tracking info) and lets a test wait for a
/// number of deliveries.
final class WatchDeliveries<Message: ProtoMessage>: Sendable {
    private let received = Mutex<[WatchSnapshot<Message>]>([])
    private let ended = Mutex<FleetError?>(nil)
    private let condition = NSCondition()

    var snapshots: [WatchSnapshot<Message>] { received.withLock { $0 } }
    var messages: [Message] { snapshots.map(\.message) }
    var error: FleetError? { ended.withLock { $0 } }

    /// What an observation hands each snapshot.
    var onUpdate: @Sendable (WatchSnapshot<Message>) -> Bool {
        { snapshot in
            self.condition.lock()
            self.received.withLock { $0.append(snapshot) }
            self.condition.broadcast()
            self.condition.unlock()
            return true
        }
    }

    /// What an observation hands the error that ends it.
    var onEnd: @Sendable (FleetError) -> Void {
        { error in
            self.condition.lock()
            self.ended.withLock { $0 = error }
            self.condition.broadcast()
            self.condition.unlock()
        }
    }

    /// Waits (up to 10 s, a bound for a stuck test, not a timing) until `done` holds.
    @discardableResult
    func wait(until done: (WatchDeliveries) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: 10)
        condition.lock()
        defer { condition.unlock() }
        while !done(self) {
            if !condition.wait(until: deadline) { return done(self) }
        }
        return true
    }
}

/// Collects what a trip watch delivers.
typealias Deliveries = WatchDeliveries<Trip>

extension WatchDeliveries where Message == Trip {
    func observe(_ engine: Engine, _ name: String, view: TripView? = nil) throws -> TripObservation {
        try engine.observeTrip(GetTripRequest(name: name, view: view), onUpdate: onUpdate, onEnd: onEnd)
    }
}

extension Engine {
    /// Waits (up to 10 s, a bound for a stuck test) until no watch feed is reading: after a write
    /// returns, until its feeds have delivered it or found it changes nothing they show.
    @discardableResult
    func watchFeedsSettle() -> Bool {
        let deadline = Date(timeIntervalSinceNow: 10)
        while !feeds.isIdle {
            if Date() > deadline { return false }
            Thread.sleep(forTimeInterval: 0.001)
        }
        return true
    }
}
