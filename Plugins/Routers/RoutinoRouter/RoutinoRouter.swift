import CRoutino
import FleetConcurrency
import FleetErrors
import FleetSchemes
import FleetGeo
import FleetRouting
import Foundation
import Synchronization

/// Road routes on Routino's library over a database that `planetsplitter` built from an OpenStreetMap
/// extract (`make map`, `fleet-admin map import`): one-way streets, access tags, turn restrictions and
/// per-transport speeds, quickest route.
///
/// Routino is not thread-safe: two threads in `Routino_CalculateRoute` crash it, even on separate
/// databases. Snapping points to roads (`Routino_FindWaypoint`) is safe on any thread and is the
/// expensive half, so it runs unlocked and its results are cached; one process-wide lock holds
/// route calculation, the walk over its output and its release, and the calculation also holds the
/// snaps off until it has read Routino's global error number. Answers are the same as one thread's.
///
/// Routino leaks about 12 KB inside every failed route (no route between the points): callers that
/// may ask the same impossible question again should remember the answer.
public final class RoutinoRouter: Router, @unchecked Sendable {
    // @unchecked: the C handles below are written once in `init` and only read afterwards; the
    // library's shared state is reached only under `RoutinoLibrary.lock` (see the type's comment).

    /// The folder planetsplitter wrote.
    public let directory: String
    public var url: String { "routino:" + directory }

    private let database: OpaquePointer
    private let translation: OpaquePointer
    private let snapped = Mutex(SnapCache())

    /// Loads the database in `directory` (memory-mapped, so shared between processes) and checks that
    /// every category's profile can route on it. Throws FAILED_PRECONDITION (`ROUTING_MAP_UNAVAILABLE`)
    /// when the folder holds no database or the library is unusable.
    public init(directory: String) throws(FleetError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder), isFolder.boolValue else {
            throw FleetError(.routingMapUnavailable, detail: "\(directory) is not a folder; build one with `make map` or `fleet-admin map import FILE.osm.pbf --into \(directory)`",
                             field: "router")
        }
        let translation = try RoutinoLibrary.translation.get()
        let loaded = RoutinoLibrary.lock.withLock { _ -> (OpaquePointer?, Int32) in
            let database = Routino_LoadDatabase(directory, nil)
            return (database, database == nil ? CRoutino_errno() : 0)
        }
        guard let database = loaded.0 else {
            throw FleetError(.routingMapUnavailable,
                             detail: "\(directory) holds no routing database Routino can load (error \(loaded.1)); planetsplitter writes nodes.mem, segments.mem, ways.mem and relations.mem there",
                             field: "router")
        }
        self.directory = directory
        self.database = database
        self.translation = translation
        for category in VehicleCategory.allCases {
            _ = try RoutinoLibrary.profile(RoutinoRouter.profileName(for: category), validatedFor: database)
        }
    }

    deinit {
        snapped.withLock { $0.removeAll() }
        RoutinoLibrary.unload(database)
    }

    /// The Routino profile (of /usr/share/routino/profiles.xml) a category drives with.
    public static func profileName(for category: VehicleCategory) -> String {
        switch category {
        case .auto, .taxi, .unknown: "motorcar"
        case .truck: "goods"
        case .twoWheeler: "motorcycle"
        case .bicycle: "bicycle"
        case .pedestrian: "foot"
        }
    }

    /// The quickest road route through the request's waypoints.
    public func route(_ request: RouteRequest) throws(FleetError) -> RoutePlan {
        try request.validate()
        let name = RoutinoRouter.profileName(for: request.category)
        var waypoints: [SnappedWaypoint] = []
        waypoints.reserveCapacity(request.waypoints.count)
        for (index, point) in request.waypoints.enumerated() {
            waypoints.append(try snap(point, category: request.category, field: request.field(ofWaypoint: index)))
        }
        let database = database, translation = translation
        let outcome = try withExtendedLifetime(waypoints) { () throws(FleetError) -> RouteOutcome in
            var handles: [OpaquePointer?] = waypoints.map(\.handle)
            return try handles.withUnsafeMutableBufferPointer { buffer throws(FleetError) -> RouteOutcome in
                try RoutinoLibrary.lock.withLock { _ throws(FleetError) -> RouteOutcome in
                    // Under the lock no other database can re-validate the profile before the route is done.
                    let profile = try RoutinoLibrary.profile(name, validatedFor: database, holdingLock: true)
                    // Routino_errno is one global, which a snap (`Routino_FindWaypoint`, run outside `lock`) also
                    // writes: the snaps are held off from the route until its error number is read.
                    let (calculated, errno) = RoutinoLibrary.profiles.writing { () -> (UnsafeMutablePointer<Routino_Output>?, Int32) in
                        let output = Routino_CalculateRoute(database, profile, translation, buffer.baseAddress, Int32(buffer.count),
                                                            ROUTINO_ROUTE_QUICKEST | ROUTINO_ROUTE_LIST_TEXT_ALL, nil)
                        return (output, output == nil ? CRoutino_errno() : 0)
                    }
                    guard let output = calculated else { return .failed(errno) }
                    defer { Routino_DeleteRoute(output) }
                    return .planned(RoutinoRouter.plan(from: output, requested: request.waypoints))
                }
            }
        }
        switch outcome {
        case .planned(let plan):
            return plan
        case .failed(let errno) where errno >= ROUTINO_ERROR_NO_ROUTE_1 && Int(errno - ROUTINO_ERROR_NO_ROUTE_1) < request.waypoints.count - 1:
            // NO_ROUTE_n: no route from waypoint n (1-based) to the next.
            let leg = Int(errno - ROUTINO_ERROR_NO_ROUTE_1)
            throw FleetError(.routeNotFound,
                             detail: "no \(RoutinoRouter.profileName(for: request.category)) route from \(request.place(ofWaypoint: leg)) to \(request.place(ofWaypoint: leg + 1)) on \(url)",
                             field: request.field(ofWaypoint: leg + 1))
        case .failed(let errno):
            throw FleetError(.internalFault, detail: "Routino could not calculate the route (error \(errno)) on \(url)")
        }
    }

    /// The waypoint Routino snapped `point` to (cached), or INVALID_ARGUMENT `POINT_OFF_MAP` naming `field`.
    private func snap(_ point: GeoPoint, category: VehicleCategory, field: String) throws(FleetError) -> SnappedWaypoint {
        let name = RoutinoRouter.profileName(for: category)
        let key = SnapCache.Key(point, profile: name)
        if let cached = snapped.withLock({ $0.entries[key] }) { return cached }
        // Thread-safe in Routino (it writes only Routino_errno, which is not read here), while no
        // thread re-validates the profile: `snapping` holds that off.
        let handle = try RoutinoLibrary.snapping(name, database: database) { profile in
            Routino_FindWaypoint(database, profile, point.latitude, point.longitude)
        }
        guard let handle else {
            throw FleetError(.pointOffMap,
                             detail: "\(field) \(point) is more than 1 km from any road a \(name) may use on \(url)",
                             field: field)
        }
        let waypoint = SnappedWaypoint(handle)
        snapped.withLock { $0.insert(waypoint, for: key) }
        return waypoint
    }

    /// Reads Routino's output list: radians to degrees, cumulative km to metres, cumulative minutes to seconds.
    private static func plan(from output: UnsafeMutablePointer<Routino_Output>, requested: [GeoPoint]) -> RoutePlan {
        var points: [GeoPoint] = []
        var meters: [Double] = []
        var seconds: [Double] = []
        var waypointIndices: [Int] = []
        var node: UnsafeMutablePointer<Routino_Output>? = output
        while let current = node {
            let item = current.pointee
            points.append(GeoPoint(latitude: Double(item.lat) * 180 / .pi, longitude: Double(item.lon) * 180 / .pi))
            // `time` is minutes, although routino.h says seconds (checked against routino-router's own output).
            meters.append(max(meters.last ?? 0, Double(item.dist) * 1000))
            seconds.append(max(seconds.last ?? 0, Double(item.time) * 60))
            if item.type == ROUTINO_POINT_WAYPOINT { waypointIndices.append(points.count - 1) }
            node = item.next
        }
        if waypointIndices.count != requested.count {
            // Should Routino not mark every waypoint, place each at the route point nearest to it, in order.
            waypointIndices = [0]
            for point in requested.dropFirst().dropLast() {
                let start = waypointIndices[waypointIndices.count - 1]
                let nearest = (start..<points.count).min { Geodesy.distance(points[$0], point) < Geodesy.distance(points[$1], point) } ?? start
                waypointIndices.append(nearest)
            }
            waypointIndices.append(points.count - 1)
        }
        return RoutePlan(points: points, cumulativeMeters: meters, cumulativeSeconds: seconds, waypointIndices: waypointIndices, isEstimate: false)
    }

    /// `routino:DIR`: registered by the wiring.
    public static let scheme = RouterRegistry.Scheme(
        name: "routino", summary: "road routes on the Routino database planetsplitter wrote in DIR (make map, fleet-admin map import)",
        needsPath: true, pathName: "DIR") { path throws(FleetError) in try RoutinoRouter(directory: path) }
}

/// What Routino answered inside the lock: a plan, or the error number it set.
private enum RouteOutcome {
    case planned(RoutePlan)
    case failed(Int32)
}

/// A point Routino snapped to a road; frees Routino's allocation when the last user lets go, so that a
/// route in flight keeps its waypoints even when the cache drops them.
final class SnappedWaypoint: @unchecked Sendable {
    // @unchecked: the handle is never written after init, and Routino only reads it.
    let handle: OpaquePointer

    init(_ handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        free(UnsafeMutableRawPointer(handle))
    }
}

/// Snapped waypoints by position (to 1e-6 degrees, about 0.1 m) and profile, bounded.
struct SnapCache {
    struct Key: Hashable {
        let latitude: Int64
        let longitude: Int64
        let profile: String

        init(_ point: GeoPoint, profile: String) {
            latitude = Int64((point.latitude * 1e6).rounded())
            longitude = Int64((point.longitude * 1e6).rounded())
            self.profile = profile
        }
    }

    /// Vehicles report new positions all the time, so old entries are dropped wholesale when the cache
    /// reaches this size (about 1 MB of Routino waypoints); pickup and drop-off points are snapped again once.
    static let capacity = 20_000

    private(set) var entries: [Key: SnappedWaypoint] = [:]

    mutating func insert(_ waypoint: SnappedWaypoint, for key: Key) {
        if entries.count >= SnapCache.capacity { entries.removeAll(keepingCapacity: true) }
        entries[key] = entries[key] ?? waypoint
    }

    mutating func removeAll() {
        entries.removeAll()
    }
}

/// Routino's process-wide state: the lock every non-thread-safe call takes, and the profiles and
/// translations XML, parsed once.
enum RoutinoLibrary {
    /// Held around every call that touches the library's globals (everything but FindWaypoint).
    static let lock = Mutex(())

    /// Where Debian's `routino` package installs its XML files.
    static let dataDirectory = "/usr/share/routino"

    /// The profiles the categories use, by name, looked up once with the XML (written only by that
    /// initialisation, before any reader can run).
    nonisolated(unsafe) private static var profilePointers: [String: OpaquePointer] = [:]

    /// Parses profiles.xml and translations.xml once, and looks up the categories' profiles; the first translation (English) is the one used
    /// (route text is not read, but Routino requires one).
    /// (`nonisolated(unsafe)`: written once by Swift's thread-safe lazy initialisation, read only afterwards.)
    nonisolated(unsafe) static let translation: Result<OpaquePointer, FleetError> = lock.withLock { _ in
        guard Routino_Check_API_Version(ROUTINO_API_VERSION) == 0 else {
            return .failure(FleetError(.routingMapUnavailable, detail: "the installed libroutino does not speak API version \(ROUTINO_API_VERSION); install Debian's routino and libroutino-dev of the same release"))
        }
        let profiles = dataDirectory + "/profiles.xml"
        let translations = dataDirectory + "/translations.xml"
        guard Routino_ParseXMLProfiles(profiles) == 0 else {
            return .failure(FleetError(.routingMapUnavailable, detail: "cannot read \(profiles) (Routino error \(CRoutino_errno())); install Debian's routino package"))
        }
        guard Routino_ParseXMLTranslations(translations) == 0, let translation = Routino_GetTranslation("") else {
            return .failure(FleetError(.routingMapUnavailable, detail: "cannot read \(translations) (Routino error \(CRoutino_errno())); install Debian's routino package"))
        }
        for name in Set(VehicleCategory.allCases.map(RoutinoRouter.profileName(for:))) {
            guard let profile = Routino_GetProfile(name) else {
                return .failure(FleetError(.routingMapUnavailable, detail: "\(profiles) has no profile '\(name)'; install Debian's routino package"))
            }
            profilePointers[name] = profile
        }
        return .success(translation)
    }

    /// Guards the profiles' validation: Routino_FindWaypoint reads a profile (shared), Routino_ValidateProfile
    /// writes it (exclusive). Routino's profiles are process-wide, one per name, and validation fits one to
    /// one database, so with several databases in a process a profile is validated again when the database changes.
    static let profiles = ReadWriteLock()

    /// The database each profile was last validated for (guarded by `profiles`).
    nonisolated(unsafe) static var validatedFor: [String: OpaquePointer] = [:]

    /// The named profile, validated for `database`. Call with `holdingLock` true only under `lock`.
    static func profile(_ name: String, validatedFor database: OpaquePointer, holdingLock: Bool = false) throws(FleetError) -> OpaquePointer {
        if !holdingLock {
            let database = Handle(database)
            return try lock.withLock { _ throws(FleetError) in
                Handle(try profile(name, validatedFor: database.pointer, holdingLock: true))
            }.pointer
        }
        _ = try translation.get()
        guard let profile = profilePointers[name] else {
            throw FleetError(.routingMapUnavailable, detail: "no Routino profile '\(name)' was loaded")
        }
        if profiles.reading({ validatedFor[name] }) == database { return profile }
        let status = profiles.writing { () -> Int32 in
            let status = Routino_ValidateProfile(database, profile)
            validatedFor[name] = status == 0 ? database : nil
            return status == 0 ? 0 : CRoutino_errno()
        }
        guard status == 0 else {
            throw FleetError(.routingMapUnavailable, detail: "the routing map cannot route a \(name) (Routino error \(status)); rebuild it with planetsplitter --tagging=/usr/share/routino/tagging.xml")
        }
        return profile
    }

    /// Runs `body` with the named profile while it stays validated for `database` (shared with other snaps).
    static func snapping<Result>(_ name: String, database: OpaquePointer, _ body: (OpaquePointer) -> Result) throws(FleetError) -> Result {
        while true {
            let result: Result? = profiles.reading {
                guard validatedFor[name] == database, let profile = profilePointers[name] else { return nil }
                return body(profile)
            }
            if let result { return result }
            _ = try profile(name, validatedFor: database)
        }
    }

    /// Unloads a database and forgets the validations made for it.
    static func unload(_ database: OpaquePointer) {
        lock.withLock { _ in
            profiles.writing { validatedFor = validatedFor.filter { $0.value != database } }
            Routino_UnloadDatabase(database)
        }
    }
}

/// A C handle carried across the lock's closure; Routino's locking rules above make the sharing safe.
struct Handle: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }
}
