import FleetEngine
import FleetInterface
import FleetModel
import FleetTestSupport
import Foundation
import SQLiteStore

/// A real `fleet-admin serve` with the map on, a car and a ride in Helsinki, roads as GeoJSON, and
/// the calls a dispatcher and a driver make over REST.
final class MapFixture: @unchecked Sendable {
    static let provider = "map-test"
    /// The car's route: from the start past the pickup to the drop-off (latitude, longitude).
    static let route: [(Double, Double)] = [(60.1650, 24.9380), (60.1680, 24.9380), (60.1700, 24.9420), (60.1720, 24.9460), (60.1750, 24.9500)]
    static let pickup = route[2]
    static let dropoff = route[4]

    let folder: URL
    let server: ServerProcess
    let tokens: MintedTokens?
    private let serverToken: String?
    /// With `deliveries`: an engine on the server's SQLite store, for the delivery calls the tests
    /// make in process (vans, tasks, stops).
    let deliveries: (any FleetAPI)?
    private let store: SQLiteStore?

    /// Starts the server; `jwt` turns token checks on (HS256), with `tokens`' secret when given;
    /// `deliveries` serves an SQLite store the test writes deliveries to (`deliveries`).
    init(jwt: Bool = false, staleAfter: Double = 8, serverArguments: [String] = [], tokens given: MintedTokens? = nil,
         deliveries withDeliveries: Bool = false) throws {
        folder = try Products.temporaryDirectory("map-pages")
        let roads = folder.appendingPathComponent("roads.geojson")
        try Self.roadsGeoJSON().write(to: roads, atomically: true, encoding: .utf8)
        tokens = try given ?? (jwt ? MintedTokens(folder: folder, provider: nil) : nil)
        let path = folder.appendingPathComponent("fleet.db").path
        store = withDeliveries ? try SQLiteStore(path: path) : nil
        deliveries = store.map { Engine(store: $0) }
        server = try ServerProcess(store: withDeliveries ? "sqlite:" + path : "memory",
                                   arguments: ["--provider", Self.provider, "--map-roads", roads.path,
                                               "--stale-after", String(staleAfter)] + (tokens?.serverArguments ?? []) + serverArguments)
        serverToken = try tokens?.mint(role: "server")
    }

    deinit {
        server.stop()
        try? store?.close()
        try? FileManager.default.removeItem(at: folder)
    }

    // MARK: Deliveries

    var parent: String { "providers/\(Self.provider)" }

    /// A van at `at`, reporting heading `heading`.
    func createVan(_ id: String, at p: (Double, Double), heading: Int32 = 45) throws {
        _ = try deliveries!.createDeliveryVehicle(CreateDeliveryVehicleRequest(
            parent: parent, deliveryVehicleId: id,
            deliveryVehicle: DeliveryVehicle(lastLocation: DeliveryVehicleLocation(location: Self.latLng(p), heading: heading, speed: 7))))
    }

    /// An OPEN delivery task at `p` with `tracking`, shown as `view` says.
    func createParcel(_ id: String, tracking: String, at p: (Double, Double), view: TaskTrackingViewConfig? = nil) throws {
        _ = try deliveries!.createTask(CreateTaskRequest(parent: parent, taskId: id, task: DeliveryTask(
            type: .delivery, state: .open, trackingId: tracking, plannedLocation: LocationInfo(point: Self.latLng(p)),
            taskDuration: ProtoDuration(timeInterval: 60), taskTrackingViewConfig: view)))
    }

    /// The van's remaining stops, in order, each doing one task.
    func setStops(_ van: String, _ stops: [((Double, Double), String)]) throws {
        let segments = stops.map { p, task in
            VehicleJourneySegment(stop: VehicleStop(plannedLocation: LocationInfo(point: Self.latLng(p)),
                                                    tasks: [VehicleStop.TaskInfo(taskId: task)], state: .new))
        }
        _ = try deliveries!.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
            deliveryVehicle: DeliveryVehicle(name: "\(parent)/deliveryVehicles/\(van)", remainingVehicleJourneySegments: segments),
            updateMask: FieldMask(["remainingVehicleJourneySegments"])))
    }

    /// The van reports where it is.
    func moveVan(_ van: String, to p: (Double, Double), heading: Int32 = 45) throws {
        _ = try deliveries!.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
            deliveryVehicle: DeliveryVehicle(name: "\(parent)/deliveryVehicles/\(van)",
                                             lastLocation: DeliveryVehicleLocation(location: Self.latLng(p), heading: heading, speed: 7)),
            updateMask: FieldMask(["lastLocation"])))
    }

    /// The task's stop is done: `stops` are what is left, and the task's outcome is set.
    func closeParcel(_ task: String, on van: String, leaving stops: [((Double, Double), String)], outcome: DeliveryTask.TaskOutcome) throws {
        try setStops(van, stops)
        _ = try deliveries!.updateTask(UpdateTaskRequest(task: DeliveryTask(name: "\(parent)/tasks/\(task)", taskOutcome: outcome),
                                                         updateMask: FieldMask(["taskOutcome"])))
    }

    static func latLng(_ p: (Double, Double)) -> LatLng { LatLng(latitude: p.0, longitude: p.1) }

    var base: String { "\(server.url)/v1/providers/\(Self.provider)" }

    @discardableResult
    func rest(_ method: String, _ path: String, _ json: Any? = nil) throws -> [String: Any] {
        let answer = try Curl.call(method, base + path, json: json, headers: serverToken.map { ["Authorization": "Bearer \($0)"] } ?? [:])
        guard answer.status == 200 else { throw Curl.Failure(description: "\(method) \(path): \(answer.status) \(answer.body)") }
        return answer.json as? [String: Any] ?? [:]
    }

    static func point(_ p: (Double, Double)) -> [String: Any] { ["latitude": p.0, "longitude": p.1] }

    /// A car on its route, and a ride it is driving to pick up.
    func createCarAndRide(vehicle: String = "car-1", trip: String = "ride-1") throws {
        try rest("POST", "/vehicles?vehicleId=\(vehicle)", [
            "vehicleState": "ONLINE", "supportedTripTypes": ["EXCLUSIVE"], "maximumCapacity": 4,
            "vehicleType": ["category": "AUTO"],
        ])
        try rest("POST", "/trips?tripId=\(trip)", [
            "tripType": "EXCLUSIVE", "numberOfPassengers": 1, "vehicleId": vehicle,
            "pickupPoint": ["point": Self.point(Self.pickup)], "dropoffPoint": ["point": Self.point(Self.dropoff)],
        ])
        try rest("PUT", "/trips/\(trip)?updateMask=tripStatus", ["tripStatus": "ENROUTE_TO_PICKUP"])
        try rest("PUT", "/vehicles/\(vehicle)?updateMask=currentRouteSegment,lastLocation", [
            "currentRouteSegment": Self.encodePolyline(Self.route),
            "lastLocation": ["location": Self.point(Self.route[0]), "heading": 0, "speed": 8],
        ])
    }

    /// The driver's phone reports where the car is (as the Driver SDK does).
    func report(_ vehicle: String = "car-1", at p: (Double, Double), heading: Int = 0) throws {
        try rest("PUT", "/vehicles/\(vehicle)?updateMask=lastLocation", [
            "lastLocation": ["location": Self.point(p), "heading": heading, "speed": 8],
        ])
    }

    /// Google's encoded polyline format (what Vehicle.currentRouteSegment carries).
    static func encodePolyline(_ points: [(Double, Double)]) -> String {
        var out = "", last = (0, 0)
        func put(_ value: Int) {
            var v = value < 0 ? ~(value << 1) : value << 1
            while v >= 0x20 {
                out.unicodeScalars.append(Unicode.Scalar(UInt8((0x20 | (v & 0x1f)) + 63)))
                v >>= 5
            }
            out.unicodeScalars.append(Unicode.Scalar(UInt8(v + 63)))
        }
        for p in points {
            let e = (Int((p.0 * 1e5).rounded()), Int((p.1 * 1e5).rounded()))
            put(e.0 - last.0)
            put(e.1 - last.1)
            last = e
        }
        return out
    }

    /// The route's streets and a grid of others around them, as an osmium export would give.
    static func roadsGeoJSON() -> String {
        var lines: [[(Double, Double)]] = [route]
        for i in 0...6 {
            let lat = 60.164 + Double(i) * 0.0025
            lines.append([(lat, 24.935), (lat, 24.953)])
            let lng = 24.935 + Double(i) * 0.003
            lines.append([(60.164, lng), (60.179, lng)])
        }
        let features = lines.map { line in
            let coordinates = line.map { "[\($0.1),\($0.0)]" }.joined(separator: ",")
            return #"{"type":"Feature","properties":{"highway":"residential"},"geometry":{"type":"LineString","coordinates":[\#(coordinates)]}}"#
        }
        return #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#
    }
}

/// Where screenshots go: under the build folder, so a person can look at each state.
enum Screenshots {
    static func path(_ name: String, file: String = #filePath) -> URL {
        var root = URL(fileURLWithPath: file)
        while root.path != "/" && !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) {
            root = root.deletingLastPathComponent()
        }
        return root.appendingPathComponent(".build/map-screenshots/\(name).png")
    }

    static func take(_ browser: Browser, _ name: String) throws {
        let url = path(name)
        try browser.screenshot(to: url)
        print("screenshot: \(url.path)")
    }
}
