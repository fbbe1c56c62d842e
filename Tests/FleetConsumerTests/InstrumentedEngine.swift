import FleetConcurrency
import FleetEngine
import FleetErrors
import FleetInterface
import FleetModel
import Synchronization

/// The real engine behind a switch, to play a server that goes down and comes back: while down,
/// `GetTrip` and new watches fail with the outage's error, and a watch in progress is broken off
/// with it. It also keeps every `GetTrip` request and answer, and can fail the next calls with
/// given errors (a client error, a token for another trip).
final class InstrumentedEngine: FleetCallPerforming, TripWatching {
    private struct State {
        var outage: FleetError?
        var failures: [FleetError] = []
        var failedCalls = 0
        var exchanges: [(request: GetTripRequest, trip: Trip)] = []
        var watches: [Cancellation] = []
    }

    let engine: Engine
    private let state = Mutex(State())

    static let outage = FleetError(.serverUnavailable, detail: "the test took the server down")

    init(_ engine: Engine) {
        self.engine = engine
    }

    // MARK: Faults

    /// Takes the server down: calls fail with `error`, running watches are broken off.
    func takeDown(with error: FleetError = InstrumentedEngine.outage) {
        let watches = state.withLock { state in
            state.outage = error
            return state.watches
        }
        for watch in watches { watch.cancel() }
    }

    /// Brings the server back.
    func restore() {
        state.withLock { $0.outage = nil }
    }

    /// Fails the next `GetTrip` calls (or watch openings) with these errors, one each.
    func failNext(_ errors: [FleetError]) {
        state.withLock { $0.failures += errors }
    }

    /// How many calls failed on purpose so far.
    var failedCalls: Int { state.withLock { $0.failedCalls } }

    /// Every successful `GetTrip` request and its answer, in order.
    var exchanges: [(request: GetTripRequest, trip: Trip)] { state.withLock { $0.exchanges } }

    /// Throws the outage's error or the next planned failure; otherwise registers `watch` (if any)
    /// so that an outage breaks it off — both under one lock, so no outage slips in between.
    private func checkFaults(registering watch: Cancellation? = nil) throws {
        let fault: FleetError? = state.withLock { state in
            let fault = state.outage ?? (state.failures.isEmpty ? nil : state.failures.removeFirst())
            if fault != nil {
                state.failedCalls += 1
            } else if let watch {
                state.watches.append(watch)
            }
            return fault
        }
        if let fault { throw fault }
    }

    // MARK: TripWatching

    func watchTrip(_ request: GetTripRequest, cancellation: Cancellation, onUpdate: (Trip) throws -> Void) throws {
        let inner = Cancellation()
        try checkFaults(registering: inner)
        cancellation.onCancel { inner.cancel() }
        try engine.watchTrip(request, cancellation: inner) { trip in
            if state.withLock({ $0.outage }) == nil { try onUpdate(trip) }
        }
        if !cancellation.isCancelled, let outage = state.withLock({ $0.outage }) {
            state.withLock { $0.failedCalls += 1 }
            throw outage
        }
    }

    // MARK: FleetAPI

    func getTrip(_ request: GetTripRequest) throws -> Trip {
        try checkFaults()
        let trip = try engine.getTrip(request)
        state.withLock { $0.exchanges.append((request, trip)) }
        return trip
    }

    // MARK: Every other call, to the engine

    func perform<Response: ProtoMessage>(_ call: FleetCall, returning: Response.Type) throws -> Response {
        try call.respond(from: engine).message(as: Response.self)
    }

    func perform(_ call: FleetCall) throws {
        _ = try call.respond(from: engine)
    }
}
