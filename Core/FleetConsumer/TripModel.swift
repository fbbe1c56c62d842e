import FleetInterface
import FleetModel

/// What a rider's app knows about a followed trip: the Consumer SDK's trip model.
///
/// Built by merging `GetTrip` snapshots one after another (`merging(_:sent:observedAt:)`); each part
/// the SDK reports to subscribers is a property, and `changes(since:)` names the parts that differ
/// between two models. Parts the server left out because their version had not changed keep their
/// previous value.
public struct TripModel: FollowedModel {
    /// The trip's resource name as it is followed (`providers/p/trips/t`).
    public var tripName: String
    /// The trip ID: the last segment of the name (waypoints name their trip by it).
    public var tripID: String { tripName.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? tripName }

    /// The trip's status; nil before the first snapshot.
    public var status: TripStatus?
    /// The vehicle serving the trip, when assigned.
    public var vehicleID: String?
    /// The vehicle's last reported position, heading, speed and accuracy, while the trip is active on it.
    public var vehicle: VehicleFix?
    /// Where the vehicle is (`vehicle`'s location).
    public var vehicleLocation: LatLng? { vehicle?.location }
    /// When the server received that position (`lastLocation.serverTime`, else its `updateTime`):
    /// how old the car's position is, which a snapshot alone does not say (a dead phone leaves it
    /// frozen while every snapshot still looks fine).
    public var vehicleLocationTime: Timestamp?
    /// Where the rider is picked up.
    public var pickupLocation: TerminalLocation?
    /// Where the rider is dropped off.
    public var dropoffLocation: TerminalLocation?
    /// The intermediate destinations, in order.
    public var intermediateDestinations: [TerminalLocation] = []
    /// Which intermediate destination is next (or reached), when the trip is at one.
    public var intermediateDestinationIndex: Int32?
    /// The estimated (or, once picked up, actual) pickup time.
    public var pickupETA: Timestamp?
    /// The estimated (or, once dropped off, actual) dropoff time.
    public var dropoffETA: Timestamp?
    /// The driving distance to the next waypoint, in metres (`remainingDistanceMeters`).
    public var remainingDistanceMeters: Int32?
    /// The route to the next waypoint (`route`, or the decoded `currentRouteSegment`).
    public var activeRoute: [LatLng] = []
    /// The traffic along `activeRoute` (`currentRouteSegmentTraffic`).
    public var activeRouteTraffic: ConsumableTrafficPolyline?
    /// The waypoints ahead of the vehicle up to this trip's dropoff, other trips' included (anonymous).
    public var remainingWaypoints: [TripWaypoint] = []
    /// The versions of the route, traffic and waypoint paths held, sent with the next `GetTrip`.
    public var versions = TripVersions()
    /// The trip as the follower knows it: the last snapshot, with the parts the server left out
    /// because they had not changed (route, traffic, waypoint paths) filled in from the one before.
    /// Nil before the first snapshot.
    public var trip: Trip?

    /// The largest remaining distance seen since the next waypoint last changed: the length of the
    /// current leg, for showing progress along it.
    public var legDistanceMeters: Int32?
    /// When the last snapshot was received (the follower's clock); nil before the first.
    public var observedAt: Timestamp?
    /// The last refresh failure, until a refresh succeeds again.
    public var lastFailure: FollowFailure?

    /// An empty model for a trip, before any snapshot.
    public init(tripName: String) {
        self.tripName = tripName
    }

    /// An empty model for the trip `name`.
    public init(name: String) {
        self.init(tripName: name)
    }

    /// `trip`.
    public static let noun = "trip"
    /// The trip's name (`tripName`).
    public var name: String { tripName }
    /// The status's name.
    public var statusName: String? { status?.name }
    /// While the trip is under way (an ended trip's car is not expected to report).
    public var expectsVehicleReports: Bool { status.map { !TripLifecycle.isTerminal($0) } ?? false }

    /// The next waypoint: the first remaining one.
    public var nextWaypoint: TripWaypoint? { remainingWaypoints.first }

    /// GetTrip with the versions held (`TripVersions.request(for:)`).
    public func request() -> GetTripRequest {
        versions.request(for: tripName)
    }

    /// `merging(_:sent:observedAt:)` with the versions `request` carried.
    public func merging(_ trip: Trip, answering request: GetTripRequest, observedAt: Timestamp) -> TripModel {
        merging(trip, sent: TripVersions(route: request.currentRouteSegmentVersion, traffic: request.currentRouteSegmentTrafficVersion,
                                         waypointsRoute: request.remainingWaypointsRouteVersion), observedAt: observedAt)
    }

    /// `tripEnded` once COMPLETE or CANCELED, `untilReached` once at or past `configuration.until`.
    public func ending(_ configuration: FollowConfiguration) -> FollowOutcome? {
        guard let status else { return nil }
        if TripLifecycle.isTerminal(status) { return .tripEnded(status) }
        if let until = configuration.until, TripProgress.hasReached(status, until) { return .untilReached(status) }
        return nil
    }

    /// Whether the rider has been picked up (the status is past the pickup).
    public var isPickedUp: Bool {
        guard let status, status != .canceled else { return false }
        return TripProgress.rank(of: status) > TripProgress.rank(of: .arrivedAtPickup)
    }
}
