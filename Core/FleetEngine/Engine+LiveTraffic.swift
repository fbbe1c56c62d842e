import FleetGeo
import FleetLearning
import FleetModel
import FleetStore
import Synchronization

/// What the vehicles this node serves drove in the last minutes, per provider (``LiveRoadSpeeds``), fed by their
/// location updates one vehicle at a time (``LiveDrive``). In memory only: each node knows the updates it received,
/// so with several nodes behind a balancer each sees the traffic of the share of vehicles that report to it, and a
/// restart starts from nothing (the window is ten minutes).
final class LiveTrafficFeed: Sendable {
    private struct State {
        var speeds: [String: LiveRoadSpeeds] = [:]
        var drives: [RecordKey: LiveDrive] = [:]
        /// The passes of the update being fed (kept between updates, so that its storage is).
        var passes: [PieceObservation] = []
    }

    /// Vehicles whose drives are followed at most; beyond, the drives are forgotten and start again.
    private static let maximumVehicles = 200_000
    /// How positions become passes.
    private let learner = DriveLearner()
    private let state = Mutex(State())

    /// Feeds a vehicle's new position, reported at `fix.time`, received at `now` (epoch seconds). Time it stood still
    /// is left out when `countsWaits` is false (a vehicle with no trip, or at its own next stop: that is not the
    /// road's traffic).
    func add(_ fix: Fix, vehicle key: RecordKey, countsWaits: Bool, now: Double) {
        // One lock and one lookup of the vehicle and of its provider. The drive is cut inside the lock (two or three
        // fixes: a few steps of arithmetic), so two updates of one vehicle cannot both cut from the same anchor.
        state.withLock { state in
            if state.drives.count >= Self.maximumVehicles, state.drives[key] == nil { state.drives.removeAll(keepingCapacity: true) }
            state.passes.removeAll(keepingCapacity: true)
            state.drives[key, default: LiveDrive()].add(fix, learner: learner) { state.passes.append($0) }
            guard !state.passes.isEmpty else { return }
            Self.add(state.passes, countsWaits: countsWaits, at: now, to: &state.speeds[key.provider, default: LiveRoadSpeeds()])
        }
    }

    /// Adds a vehicle's `passes`, seen at `now`, to its provider's `speeds`, their waits left out unless `countsWaits`.
    private static func add(_ passes: [PieceObservation], countsWaits: Bool, at now: Double, to speeds: inout LiveRoadSpeeds) {
        for pass in passes {
            let seconds = pass.tally.seconds - (countsWaits ? 0 : pass.tally.waitSeconds)
            speeds.add(pass.piece, seconds: seconds, meters: pass.tally.meters, at: now)
        }
    }

    /// `body`'s answer over `provider`'s live speeds (held locked meanwhile: keep it short).
    func reading<Result>(provider: String, _ body: (LiveRoadSpeeds) -> Result) -> Result {
        state.withLock { body($0.speeds[provider] ?? LiveRoadSpeeds()) }
    }
}

extension Engine {
    /// A vehicle's route traffic is worked out again at most this often, seconds: a twentieth of the ten minutes live
    /// speeds are kept, so what riders see lags what the fleet drove by half a minute at most, and a vehicle
    /// reporting every 5 s pays for it on one update in six (`fleet-bench geo`'s live traffic row is one such update).
    static let liveTrafficRefreshSeconds = 30.0

    /// Feeds the vehicle's newly accepted location to the live speeds, when the engine uses learned times (traffic is
    /// live speed against learned speed).
    func feedLiveTraffic(_ record: VehicleRecord, now: Timestamp) {
        guard configuration.learnedETAs != nil, let location = record.vehicle.lastLocation,
              let here = location.location.map(GeoPoint.init) else { return }
        let time = (location.updateTime ?? now).timeIntervalSince1970
        // Standing with no trip (a rank, a break) or at its own next stop (a pickup) says nothing of the road.
        let next = record.vehicle.waypoints.first?.location?.point.map(GeoPoint.init)
        let countsWaits = next.map { Geodesy.distance($0, here) > RoadPiece.sizeMeters } ?? false
        liveTraffic.add(Fix(time: time, position: here), vehicle: record.key, countsWaits: countsWaits,
                        now: now.timeIntervalSince1970)
    }

    /// The slow and jammed stretches of the vehicle's route from `travelledMeters` through `through` (the live
    /// traffic's horizon), as last worked out for this route when that was less than ``liveTrafficRefreshSeconds``
    /// ago, else worked out now: again only for the stretches near which the live speeds changed since
    /// (``RouteTrafficReadings``), from the learned tables of `generation` (their paces on the route as `timing`, the
    /// vehicle's plan, read them, when it was made from the same tables).
    func routeTraffic(_ cached: RouteCache.Entry, index: RouteTrafficIndex, provider: String, travelledMeters: Double,
                      through: Double, times: RoadTimes, generation: Int, timing: LearnedTiming?, settings: LearnedETASettings,
                      now: Double) -> LiveRouteTraffic {
        cached.liveTraffic.withLock { kept in
            if let last = kept.last, now - last.computedAt < Self.liveTrafficRefreshSeconds, now >= last.computedAt {
                return last.traffic
            }
            let traffic = liveTraffic.reading(provider: provider) { live in
                index.liveTraffic(from: travelledMeters, through: through, live: live, times: times, generation: generation, now: now,
                                  utcOffsetSeconds: settings.model.utcOffsetSeconds, timing: timing, readings: &kept.readings)
            }
            kept.last = (now, traffic)
            return traffic
        }
    }

    /// Keeps `traffic` (the stretches not yet passed) with the vehicle in the Driver SDK's form, with a new version when
    /// it changed; nil clears it.
    func publishLiveTraffic(_ traffic: LiveRouteTraffic?, travelledMeters: Double, on record: inout VehicleRecord, now: Timestamp) {
        let stretches = (traffic?.stretches ?? []).filter { $0.endMeters > travelledMeters }.map { stretch in
            VisualTrafficReportPolylineRendering.RoadStretch(
                style: stretch.speed == .trafficJam ? .trafficJam : .slowerTraffic,
                offsetMeters: Int32(roundingClamped: stretch.startMeters),
                lengthMeters: Int32(roundingClamped: stretch.endMeters - stretch.startMeters))
        }
        let published = stretches.isEmpty ? nil
            : TrafficPolylineData(trafficRendering: VisualTrafficReportPolylineRendering(roadStretch: stretches))
        guard published != record.tracking.liveTraffic else { return }
        record.tracking.liveTraffic = published
        record.tracking.liveTrafficVersion = now
    }
}
