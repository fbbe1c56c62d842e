import FleetGeo
import FleetLearning
import FleetModel
import Foundation
import Synchronization

/// How the engine uses what the fleet learned from its drives.
public struct LearnedETASettings: Sendable, Hashable {
    /// How learned times blend with the live pace, and the fleet's local time.
    public var model = LearnedETAModel()
    /// How often a node reads the learned tables from the store again, seconds: what another node (or
    /// `fleet-admin speeds learn`) learned is used after at most this long.
    public var refreshSeconds = 60.0
    /// How often a server learns from the position history kept since its last run (`HistoryLearningJob`), seconds.
    public var learnEverySeconds = 300.0

    /// The standard settings: the fleet's clock in the machine's time zone.
    public init() {
        model.utcOffsetSeconds = Double(TimeZone.current.secondsFromGMT())
    }
}

/// The learned tables per provider as last read from the store, read again in the background when older than the
/// settings' refresh time, so a location update never waits for the store. A refresh first reads the tables'
/// revision (``LearnedTimesStorage/revision(provider:)``) and reads the tables themselves only when it moved. Each
/// piece's smoothed paces are computed once per read of changed tables (``RoadTimes/precomputePaces()``), so the
/// vehicles' plans look them up.
final class LearnedTimesCache: Sendable {
    private struct Entry {
        var times: RoadTimes
        var loadedAt: Double
        var loading: Bool
        /// Changes whenever `times` is read again and differs, so plans made from older tables are made anew (and
        /// stay while the store holds what it held).
        var generation: Int
        /// The store's revision of the tables when `times` was read; nil when it could not be read (the next refresh
        /// reads the tables).
        var revision: UInt64?
        /// How often this process learned more (``LearnedTimesCache/invalidate()``), and how often before `times`
        /// was read: while the first is larger, the next use reads the store again, waiting for it (the metrics
        /// keep showing `times` meanwhile).
        var invalidations = 0
        var invalidationsRead = 0
        var outdated: Bool { invalidations > invalidationsRead }
    }

    private static let generations = Atomic<Int>(0)
    private static func nextGeneration() -> Int { generations.add(1, ordering: .relaxed).newValue }

    private let entries = Mutex<[String: Entry]>([:])

    /// The tables for `provider`: read from the store on the first call (and the first after ``invalidate()``), then
    /// again in the background whenever they are older than `refreshSeconds` (the older tables answer meanwhile). A
    /// provider's first read waits for the store once; a store that cannot be read gives empty tables until the next
    /// refresh.
    func times(provider: String, now: Double, storage: LearnedTimesStorage, refreshSeconds: Double) -> (times: RoadTimes, generation: Int) {
        // The entry is read in place, and written only when a refresh falls due (every update comes here).
        let (cached, due, invalidations) = entries.withLock { entries -> ((times: RoadTimes, generation: Int)?, Bool, Int) in
            guard let index = entries.index(forKey: provider) else { return (nil, false, 0) }
            let entry = entries.values[index]
            guard !entry.outdated else { return (nil, false, entry.invalidations) }
            let due = !entry.loading && now - entry.loadedAt >= refreshSeconds
            if due { entries.values[index].loading = true }
            return ((entry.times, entry.generation), due, entry.invalidations)
        }
        guard let cached else {
            let revision = try? storage.revision(provider: provider)
            var loaded = (try? storage.load(provider: provider)) ?? RoadTimes()
            loaded.precomputePaces()
            let generation = Self.nextGeneration()
            entries.withLock { entries in
                var entry = Entry(times: loaded, loadedAt: now, loading: entries[provider]?.loading ?? false, generation: generation,
                                  revision: revision)
                entry.invalidations = max(invalidations, entries[provider]?.invalidations ?? 0)
                entry.invalidationsRead = invalidations
                entries[provider] = entry
            }
            return (loaded, generation)
        }
        if due { reloadInBackground(provider: provider, invalidations: invalidations, now: now, storage: storage) }
        return (cached.times, cached.generation)
    }

    /// Starts reading again, in the background, every provider's tables that are older than `refreshSeconds` or
    /// outdated, so that what ``extents`` reports follows the store while no vehicle uses the tables (a scrape of
    /// `/metrics` after `fleet-admin speeds learn` or `clear`).
    func refreshDue(now: Double, storage: LearnedTimesStorage, refreshSeconds: Double) {
        let due = entries.withLock { entries -> [(provider: String, invalidations: Int)] in
            var due: [(String, Int)] = []
            for (provider, entry) in entries where !entry.loading && (entry.outdated || now - entry.loadedAt >= refreshSeconds) {
                entries[provider]?.loading = true
                due.append((provider, entry.invalidations))
            }
            return due
        }
        for (provider, invalidations) in due {
            reloadInBackground(provider: provider, invalidations: invalidations, now: now, storage: storage)
        }
    }

    /// Reads `provider`'s tables again on a background queue, `invalidations` being the entry's count when the read
    /// began: only their revision while it is the one read last and the entry is not outdated, the tables otherwise.
    /// Tables equal to those in use are dropped: the vehicles' plans stay.
    private func reloadInBackground(provider: String, invalidations: Int, now: Double, storage: LearnedTimesStorage) {
        DispatchQueue.global(qos: .utility).async { [self] in
            /// Ends the refresh keeping the tables in use; the next is due a refresh time from `now`.
            func keepTables() {
                entries.withLock { entries in
                    entries[provider]?.loading = false
                    entries[provider]?.loadedAt = now
                }
            }
            let revision = try? storage.revision(provider: provider)
            let unchanged = revision != nil && entries.withLock { entries in
                entries[provider].map { !$0.outdated && $0.revision == revision } ?? false
            }
            guard !unchanged, var loaded = try? storage.load(provider: provider) else { return keepTables() }
            let inUse = entries.withLock { $0[provider]?.times.pieces }
            let changed = loaded.pieces != inUse
            if changed { loaded.precomputePaces() }
            entries.withLock { entries in
                guard var entry = entries[provider] else { return }
                entry.loading = false
                entry.loadedAt = now
                entry.revision = revision
                entry.invalidationsRead = max(entry.invalidationsRead, invalidations)
                if changed {
                    entry.times = loaded
                    entry.generation = Self.nextGeneration()
                }
                entries[provider] = entry
            }
        }
    }

    /// Marks every provider's tables outdated, so the next update reads them again (the metrics keep the last read
    /// until then).
    func invalidate() {
        entries.withLock { entries in
            for provider in entries.keys { entries[provider]?.invalidations += 1 }
        }
    }

    /// How much is learned per provider, as last read.
    var extents: [(provider: String, pieces: Int, rows: Int, passes: Double)] {
        entries.withLock { entries in
            entries.sorted { $0.key < $1.key }.map { provider, entry in
                let extent = entry.times.extent
                return (provider, extent.pieces, extent.rows, extent.passes)
            }
        }
    }
}

extension Engine {
    /// Reads the learned tables again on the next update (after this process learned more).
    public func forgetLearnedTimes() {
        learnedTimes.invalidate()
    }

    /// The learned times stored with this engine's store.
    public var learnedTimesStorage: LearnedTimesStorage { LearnedTimesStorage(store: store) }

    /// Prometheus exposition text of how much the engine has learned per provider (as last read from the store: each
    /// scrape starts reading again, in the background, tables older than the refresh time, so the next scrape shows
    /// what `fleet-admin speeds learn` or `clear` changed) and whether it uses it: `fleet_learned_road_pieces`, `fleet_learned_rows`, `fleet_learned_passes`,
    /// `fleet_learned_etas_enabled`.
    public func learnedMetrics() -> String {
        var out = """
        # HELP fleet_learned_etas_enabled Whether ETAs use the travel times learned from the fleet's drives.
        # TYPE fleet_learned_etas_enabled gauge
        fleet_learned_etas_enabled \(configuration.learnedETAs == nil ? 0 : 1)

        """
        if let settings = configuration.learnedETAs {
            learnedTimes.refreshDue(now: clock.now().timeIntervalSince1970, storage: learnedTimesStorage,
                                    refreshSeconds: settings.refreshSeconds)
        }
        let extents = learnedTimes.extents
        func gauge(_ name: String, _ help: String, _ value: (Int) -> String) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) gauge\n"
            for index in extents.indices { out += "\(name){provider=\"\(extents[index].provider)\"} \(value(index))\n" }
        }
        gauge("fleet_learned_road_pieces", "Directed pieces of road with learned travel times, by provider.") { "\(extents[$0].pieces)" }
        gauge("fleet_learned_rows", "Learned rows (piece and quarter hour of the week), by provider.") { "\(extents[$0].rows)" }
        gauge("fleet_learned_passes", "Passes over pieces of road the learned times stand on, by provider.") { "\(Int64(extents[$0].passes))" }
        return out
    }

    /// The ETAs of `etas` with the stretches ahead on the route timed by what the fleet learned: each waypoint on
    /// the route gets the learned time to it (``LearnedRoute``), at the times of the week the vehicle will be on
    /// each stretch, blended with `livePace` just ahead; stretches with nothing learned keep `livePace` (the
    /// estimator's own pace: the vehicle's observed speed against its category's default). Stretches the fleet just
    /// drove slower than learned (the route's live traffic within its horizon,
    /// ``routeTraffic(_:index:provider:travelledMeters:through:times:generation:timing:settings:now:)``) take the time they
    /// take now. Waypoints past the route, and everything when nothing is learned for the provider, stay as the
    /// estimator gave them. Answers the ETAs and the route's live traffic (nil when nothing is learned).
    func withLearnedTimes(_ etas: [WaypointETA], provider: String, route cached: RouteCache.Entry, segment: String?,
                          travelledMeters: Double, livePace: Double, now: Double) -> (etas: [WaypointETA], traffic: LiveRouteTraffic?) {
        guard let settings = configuration.learnedETAs, let learned = cached.learnedRoute else { return (etas, nil) }
        let (times, generation) = learnedTimes.times(provider: provider, now: now, storage: learnedTimesStorage,
                                                     refreshSeconds: settings.refreshSeconds)
        guard !times.pieces.isEmpty else { return (etas, nil) }
        let waypoints = cached.waypoints.waypoints
        let onRoute = etas.indices.filter { index in
            index < waypoints.count && !etas[index].isEstimate && (waypoints[index].alongRouteMeters ?? 0) > travelledMeters
        }
        let targets = onRoute.map { waypoints[$0].alongRouteMeters! }
        // The router's times where nothing is learned, for a route this node planned.
        let fallback = cached.routerFallback.withLock { kept in
            if let kept, kept.generation == generation { return kept.fallback }
            let fallback = segment.flatMap(routerTimes.times(of:)).map {
                RouterFallback(route: learned, along: cached.route, cumulativeSeconds: $0.cumulativeSeconds,
                               firstTimedPoint: $0.firstTimedPoint, times: times)
            }
            kept = (generation, fallback?.isEmpty == false ? fallback : nil)
            return kept?.fallback
        }
        let (timed, traffic) = cached.learnedTiming.withLock { timing in
            learnedSeconds(along: learned, from: travelledMeters, to: targets, times: times, generation: generation,
                           settings: settings, livePace: livePace, fallback: fallback, timing: &timing, now: now) { through, timing in
                cached.trafficIndex.map {
                    routeTraffic(cached, index: $0, provider: provider, travelledMeters: travelledMeters, through: through,
                                 times: times, generation: generation, timing: timing, settings: settings, now: now)
                } ?? .none
            }
        }
        guard !onRoute.isEmpty else { return (etas, traffic) }
        var result = etas
        var shift = 0.0
        for (offset, index) in onRoute.enumerated() {
            shift = timed[offset] - etas[index].remainingSeconds
            result[index].remainingSeconds = timed[offset]
            result[index].arrivalTime = now + timed[offset]
        }
        // Waypoints after the last one timed on the route keep their legs, moved by the same amount.
        if let last = onRoute.last {
            for index in (last + 1)..<result.count {
                result[index].remainingSeconds = max(0, result[index].remainingSeconds + shift)
                result[index].arrivalTime = now + result[index].remainingSeconds
            }
        }
        return (result, traffic)
    }

    /// Seconds from `fromMeters` along `learned` to each of `targets`: the learned times at the quarter hour the
    /// vehicle gets to each stretch, with `livePace` blended in just ahead; where nothing is learned, the router's
    /// time for the stretch (`fallback`, for a route the router planned), else `livePace`; and the live traffic's slow
    /// and jammed stretches at the pace vehicles just drove them: `traffic` answers them up to the horizon it is given
    /// (where the plan gets the vehicle in ``LearnedETAModel/liveTrafficHorizonSeconds``), given the plan too (whose
    /// learned paces it may read rather than look up). What a vehicle's ETAs and
    /// SearchVehicles' ETAs both are; answers the seconds and the traffic.
    func learnedSeconds(along learned: LearnedRoute, from fromMeters: Double, to targets: [Double], times: RoadTimes,
                        generation: Int, settings: LearnedETASettings, livePace: Double, fallback: RouterFallback?,
                        timing: inout LearnedTiming?, now: Double,
                        traffic: (_ throughMeters: Double, _ timing: LearnedTiming?) -> LiveRouteTraffic) -> (seconds: [Double], traffic: LiveRouteTraffic) {
        var timed = learned.seconds(from: fromMeters, to: targets, now: now, times: times, generation: generation,
                                    model: settings.model, liveSecondsPerMeter: livePace, fallbackSecondsPerMeter: livePace,
                                    timing: &timing)
        let ahead = traffic(learned.liveTrafficHorizon(from: fromMeters, timing: timing, model: settings.model,
                                                       fallbackSecondsPerMeter: livePace), timing)
        for index in timed.indices {
            timed[index] += ahead.extraSeconds(from: fromMeters, to: targets[index])
            if let fallback {
                timed[index] = max(0, timed[index] + fallback.extraSeconds(from: fromMeters, to: targets[index],
                                                                           fallbackSecondsPerMeter: livePace))
            }
        }
        return (timed, ahead)
    }

    /// How SearchVehicles times a candidate's legs on its road route, as its trip's ETAs would then be: the learned
    /// times along it (``learnedSeconds(along:from:to:times:generation:settings:livePace:fallback:timing:now:traffic:)``),
    /// the router's times where nothing is learned, the vehicle's own pace (its observed speed against its category's
    /// default) on the lead from where it stands to the road, answering
    /// each leg's seconds. Nil when the engine uses no learned times or nothing is learned for `provider`: the legs
    /// keep the category's default speed.
    func learnedLegTiming(provider: String, now: Timestamp) -> (@Sendable (SearchQuery.Candidate, SearchRouteCache.Plan) -> [Double])? {
        guard let settings = configuration.learnedETAs else { return nil }
        let t = now.timeIntervalSince1970
        let (times, generation) = learnedTimes.times(provider: provider, now: t, storage: learnedTimesStorage,
                                                     refreshSeconds: settings.refreshSeconds)
        guard !times.pieces.isEmpty else { return nil }
        return { [self] candidate, plan in
            let estimator = ETAEstimator(category: VehicleCategory(candidate.category),
                                         observedSpeed: ObservedSpeed(snapshot: candidate.vehicle.record.tracking.speed))
            let livePace = 1 / estimator.freeFlowMetersPerSecond(now: t)
            let learned = LearnedRoute(route: plan.route)
            let fallback = RouterFallback(route: learned, along: plan.route, cumulativeSeconds: plan.routerTimes.cumulativeSeconds,
                                          firstTimedPoint: plan.routerTimes.firstTimedPoint, times: times)
            var timing: LearnedTiming? = nil
            let arrivals = learnedSeconds(along: learned, from: 0, to: plan.targets, times: times, generation: generation,
                                          settings: settings, livePace: livePace, fallback: fallback.isEmpty ? nil : fallback,
                                          timing: &timing, now: t) { through, _ in
                liveTraffic.reading(provider: provider) { live in
                    RouteTrafficIndex(learned).liveTraffic(from: 0, through: through, live: live, times: times, now: t,
                                                           utcOffsetSeconds: settings.model.utcOffsetSeconds)
                }
            }.seconds
            return arrivals.indices.map { arrivals[$0] - ($0 == 0 ? 0 : arrivals[$0 - 1]) }
        }
    }
}
