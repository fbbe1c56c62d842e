import FleetConsumer
import FleetEngine
import FleetGeo
import FleetModel
import MemoryStore
import Testing

/// Merging snapshots into the trip model: parts the server leaves out by version are kept, real
/// changes replace, and the ETAs come from the right waypoints.
@Suite struct MergeTests {
    static let name = "providers/p/trips/t"
    static let early = Timestamp(seconds: 1_000)
    static let late = Timestamp(seconds: 2_000)
    static let route = [LatLng(latitude: 1, longitude: 1), LatLng(latitude: 1, longitude: 2), LatLng(latitude: 1, longitude: 3)]
    static let traffic = ConsumableTrafficPolyline(speedReadingInterval: [
        SpeedReadingInterval(startPolylinePointIndex: 0, endPolylinePointIndex: 2, speed: .slow),
    ])

    /// A model holding a route, traffic and a waypoint path, all at version `early`.
    static func heldModel() -> TripModel {
        var trip = Trip(name: name, tripStatus: .enrouteToPickup)
        trip.route = route
        trip.currentRouteSegmentVersion = early
        trip.currentRouteSegmentTraffic = traffic
        trip.currentRouteSegmentTrafficVersion = early
        trip.remainingWaypoints = [waypoint(.pickupWaypointType, path: route)]
        trip.remainingWaypointsRouteVersion = early
        return TripModel(tripName: name).merging(trip, sent: TripVersions(), observedAt: early)
    }

    /// A snapshot whose route, traffic and waypoint path the server left out, at version `early`.
    static func unchangedPaths(status: TripStatus) -> Trip {
        var trip = Trip(name: name, tripStatus: status)
        trip.currentRouteSegmentVersion = early
        trip.currentRouteSegmentTrafficVersion = early
        trip.remainingWaypoints = [waypoint(.pickupWaypointType)]
        trip.remainingWaypointsRouteVersion = early
        return trip
    }

    static func waypoint(_ type: WaypointType, path: [LatLng] = [], eta: Timestamp? = nil, trip: String? = "t") -> TripWaypoint {
        TripWaypoint(location: TerminalLocation(point: LatLng(latitude: 1, longitude: type == .pickupWaypointType ? 3 : 5)),
                     tripId: trip, waypointType: type, pathToWaypoint: path, eta: eta)
    }

    @Test func partsLeftOutByVersionKeepTheirValueAndAreNoChange() {
        let held = Self.heldModel()
        let next = held.merging(Self.unchangedPaths(status: .enrouteToPickup), sent: held.versions, observedAt: Self.late)

        #expect(next.activeRoute == Self.route)
        #expect(next.activeRouteTraffic == Self.traffic)
        #expect(next.remainingWaypoints.first?.pathToWaypoint == Self.route)
        #expect(next.changes(since: held).isEmpty)
        #expect(next.events(since: held, at: Self.late).isEmpty)
        // The trip the `trip` event carries has them too: the trip as the follower knows it.
        #expect(next.trip?.route == Self.route)
        #expect(next.trip?.currentRouteSegmentTraffic == Self.traffic)
        #expect(next.trip?.remainingWaypoints.first?.pathToWaypoint == Self.route)
        #expect(next.trip?.tripStatus == .enrouteToPickup)
    }

    @Test func theTripEventCarriesTheChangedValuesAndTheTrip() throws {
        let held = Self.heldModel()
        var trip = Self.unchangedPaths(status: .arrivedAtPickup)
        trip.lastLocation = VehicleLocation(location: LatLng(latitude: 1, longitude: 2), heading: 90, speed: 5)
        let next = held.merging(trip, sent: held.versions, observedAt: Self.late)
        let events = next.events(since: held, at: Self.late)
        guard case .changes(let parts, let carried)? = events.first?.value else {
            Issue.record("no trip event first: \(events)")
            return
        }
        #expect(parts.map(\.name) == ["tripStatus", "vehicleLocation"])
        #expect(parts.map(\.value) == [.status(.arrivedAtPickup), .vehicle(VehicleFix(location: LatLng(latitude: 1, longitude: 2), heading: 90, speed: 5))])
        #expect(carried == next.trip.map(FollowedSnapshot.trip))
        #expect(next.trip?.route == Self.route, "the route the server left out is the one held")
        #expect(events.dropFirst().map(\.value) == parts.map(\.value))
    }

    @Test func aNewerVersionReplaces() {
        let held = Self.heldModel()
        var trip = Trip(name: Self.name, tripStatus: .enrouteToPickup)
        trip.currentRouteSegment = Polyline.encode([GeoPoint(latitude: 2, longitude: 2), GeoPoint(latitude: 2, longitude: 3)])
        trip.currentRouteSegmentVersion = Self.late
        trip.currentRouteSegmentTrafficVersion = Self.late
        let next = held.merging(trip, sent: held.versions, observedAt: Self.late)

        #expect(next.activeRoute == [LatLng(latitude: 2, longitude: 2), LatLng(latitude: 2, longitude: 3)])
        #expect(next.activeRouteTraffic == nil)
        #expect(next.versions == TripVersions(route: Self.late, traffic: Self.late))
        #expect(next.changes(since: held) == [.activeRoute, .remainingWaypoints, .activeRouteTraffic])
    }

    @Test func anEmptyPartWithoutVersionIsGone() {
        let held = Self.heldModel()
        let next = held.merging(Trip(name: Self.name, tripStatus: .enrouteToPickup), sent: held.versions, observedAt: Self.late)
        #expect(next.activeRoute.isEmpty)
        #expect(next.activeRouteTraffic == nil)
        #expect(next.changes(since: held) == [.activeRoute, .remainingWaypoints, .activeRouteTraffic])
    }

    @Test func anEmptyPartIsEmptyWhenNoVersionWasSent() {
        let held = Self.heldModel()
        var trip = Trip(name: Self.name, tripStatus: .enrouteToPickup)
        trip.currentRouteSegmentVersion = Self.early
        let next = held.merging(trip, sent: TripVersions(), observedAt: Self.late)
        #expect(next.activeRoute.isEmpty)
    }

    @Test func pollingSendsTheVersionsItHoldsAndKeepsWhatTheEngineLeavesOut() throws {
        let clock = ManualClock()
        let server = InstrumentedEngine(Engine(store: MemoryStore(), clock: clock))
        let script = ScriptedTrip(api: server.engine, clock: clock)
        try script.create()
        let followerClock = TestClock(clock, advancesOnSleep: false)
        followerClock.onSleep { _ in _ = try? script.runNextStep() }
        let recorder = EventRecorder()
        let follower = TripFollower(tripName: ScriptedTrip.tripName, source: PollingSource(api: server, intervalSeconds: 5),
                                    configuration: FollowConfiguration(until: .arrivedAtPickup), clock: followerClock)
        #expect(follower.follow { recorder.record($0) } == .untilReached(.arrivedAtPickup))

        let exchanges = server.exchanges
        #expect(exchanges.allSatisfy { $0.request.view == .journeySharingV1s && $0.request.routeFormatType == .encodedPolylineType })
        #expect(exchanges.first?.request.currentRouteSegmentVersion == nil)
        // Step 3 set the route: the poll after it got it, every later poll sent its version and got none.
        let routed = try #require(exchanges.firstIndex { $0.trip.currentRouteSegment != nil })
        let version = try #require(exchanges[routed].trip.currentRouteSegmentVersion)
        let later = exchanges[(routed + 1)...]
        #expect(later.count == 5)
        #expect(later.allSatisfy { $0.request.currentRouteSegmentVersion == version })
        #expect(later.allSatisfy { $0.request.currentRouteSegmentTrafficVersion != nil })
        #expect(later.allSatisfy { $0.trip.currentRouteSegment == nil && $0.trip.route.isEmpty && $0.trip.currentRouteSegmentTraffic == nil })
        // … and the follower kept the route: one activeRoute event, the route still held at the end.
        #expect(recorder.count(.activeRoute) == 1)
        #expect(recorder.count(.activeRouteTraffic) == 1)
        #expect(recorder.allUpdates.last?.model.activeRoute.count == 9)
    }

    // MARK: ETAs

    @Test func etasComeFromThisTripsWaypoints() {
        var trip = Trip(name: Self.name, tripStatus: .enrouteToPickup)
        trip.pickupTime = Timestamp(seconds: 1)
        trip.dropoffTime = Timestamp(seconds: 2)
        trip.remainingWaypoints = [
            Self.waypoint(.dropOffWaypointType, eta: Timestamp(seconds: 50), trip: nil), // another rider's stop
            Self.waypoint(.pickupWaypointType, eta: Timestamp(seconds: 100)),
            Self.waypoint(.dropOffWaypointType, eta: Timestamp(seconds: 300)),
        ]
        let model = TripModel(tripName: Self.name).merging(trip, sent: TripVersions(), observedAt: Self.early)
        #expect(model.pickupETA == Timestamp(seconds: 100))
        #expect(model.dropoffETA == Timestamp(seconds: 300))
    }

    @Test func theFirstWaypointFallsBackToEtaToFirstWaypointThenTheTripsTimes() {
        var trip = Trip(name: Self.name, tripStatus: .enrouteToPickup)
        trip.etaToFirstWaypoint = Timestamp(seconds: 90)
        trip.dropoffTime = Timestamp(seconds: 400)
        trip.remainingWaypoints = [Self.waypoint(.pickupWaypointType), Self.waypoint(.dropOffWaypointType)]
        let model = TripModel(tripName: Self.name).merging(trip, sent: TripVersions(), observedAt: Self.early)
        #expect(model.pickupETA == Timestamp(seconds: 90))
        #expect(model.dropoffETA == Timestamp(seconds: 400))

        var unassigned = Trip(name: Self.name, tripStatus: .new)
        unassigned.pickupTime = Timestamp(seconds: 70)
        #expect(TripModel(tripName: Self.name).merging(unassigned, sent: TripVersions(), observedAt: Self.early).pickupETA == Timestamp(seconds: 70))
    }

    @Test func theLegRestartsWhenTheNextWaypointOrTheRouteChanges() {
        var trip = Trip(name: Self.name, tripStatus: .enrouteToPickup)
        trip.remainingWaypoints = [Self.waypoint(.pickupWaypointType), Self.waypoint(.dropOffWaypointType)]
        trip.remainingDistanceMeters = 1000
        var model = TripModel(tripName: Self.name).merging(trip, sent: TripVersions(), observedAt: Self.early)
        #expect(model.legDistanceMeters == 1000)
        trip.remainingDistanceMeters = 400
        model = model.merging(trip, sent: model.versions, observedAt: Self.early)
        #expect(model.legDistanceMeters == 1000)
        trip.currentRouteSegmentVersion = Self.late
        trip.route = Self.route
        trip.remainingDistanceMeters = 600
        model = model.merging(trip, sent: model.versions, observedAt: Self.early)
        #expect(model.legDistanceMeters == 600)
        trip.remainingWaypoints.removeFirst()
        trip.remainingDistanceMeters = 2000
        model = model.merging(trip, sent: model.versions, observedAt: Self.early)
        #expect(model.legDistanceMeters == 2000)
    }
}
