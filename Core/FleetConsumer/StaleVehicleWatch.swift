import FleetModel
import Synchronization

/// Tells when the followed trip's (or shipment's) vehicle goes quiet. A dead driver's phone changes nothing on the
/// server, so no snapshot ever arrives to say so: the clock must. Every update passes through
/// `present` (which forwards it), and `tick` (every second) looks again at the last model; when the
/// vehicle's position crosses `staleAfterSeconds` either way, a `vehicleStale` event is presented.
///
/// Calls to the presenter are serialised here, so the follower's thread and the ticker's never
/// present at once.
public final class StaleVehicleWatch<Model: FollowedModel>: Sendable {

    private let staleAfterSeconds: Double
    private let now: @Sendable () -> Timestamp
    private let forward: @Sendable (FollowUpdate<Model>) -> Void
    private let reportEvents: Bool
    private let state = Mutex(State())

    private struct State {
        var model: Model?
        var wasStale = false
    }

    /// A watch presenting through `forward`; `reportEvents` false keeps the events to itself (the
    /// live panel shows staleness on its own).
    public init(staleAfterSeconds: Double = FollowConfiguration.defaultStaleAfterSeconds, reportEvents: Bool = true,
                now: @escaping @Sendable () -> Timestamp, forward: @escaping @Sendable (FollowUpdate<Model>) -> Void) {
        self.staleAfterSeconds = staleAfterSeconds
        self.reportEvents = reportEvents
        self.now = now
        self.forward = forward
    }

    /// Forwards an update from the follower, then a `vehicleStale` event if the state changed.
    public func present(_ update: FollowUpdate<Model>) {
        state.withLock { state in
            forward(update)
            state.model = update.model
            check(&state)
        }
    }

    /// Looks at the last model again (call every second).
    public func tick() {
        state.withLock { check(&$0) }
    }

    private func check(_ state: inout State) {
        guard let model = state.model else { return }
        let at = now()
        let stale = model.isVehicleStale(at: at, staleAfterSeconds: staleAfterSeconds)
        guard stale != state.wasStale else { return }
        state.wasStale = stale
        guard reportEvents, let age = model.vehicleLocationAge(at: at), let since = model.vehicleLocationTime else { return }
        let event = FollowEvent(kind: Model.Kind.vehicleStale, name: model.name, time: at,
                                value: .staleness(stale: stale, ageSeconds: age, since: since))
        forward(FollowUpdate(model: model, events: [event]))
    }
}
