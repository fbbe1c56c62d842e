import FleetErrors
import FleetGeo
import FleetRouting
import FleetTestSupport
import Foundation
import RoutinoRouter
import Testing

/// `fleet-admin serve --router routino:DIR` plans the routes of vehicles that send none: the rider's trip
/// shows a road route and road distances, the same as the router gives.
@Suite(.serialized, .enabled(if: HelsinkiMap.directory != nil, "\(HelsinkiMap.missing)"))
struct ServerRoutingTests {
    static let json = [("Content-Type", "application/json")]

    func send(_ server: ServerProcess, _ method: String, _ target: String, _ body: String = "") throws -> [String: Any] {
        let answer = try RawHTTP.exchange(server.url, RawHTTP.request(method, target, headers: body.isEmpty ? [] : Self.json, body: Array(body.utf8)))
        let object = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any] ?? [:]
        #expect(answer.status == 200, "\(method) \(target): \(answer.body.prefix(400))")
        return object
    }

    func point(_ p: GeoPoint) -> String { #"{"latitude":\#(p.latitude),"longitude":\#(p.longitude)}"# }

    /// Three seeded points of the map joined by car: vehicle, pickup, dropoff, and their road plan.
    func ride() throws -> (points: [GeoPoint], plan: RoutePlan) {
        let router = try RoutinoRouter(directory: HelsinkiMap.directory!)
        let candidates = HelsinkiMap.randomPoints(count: 60, seed: 42)
        for i in stride(from: 0, to: candidates.count - 2, by: 3) {
            let points = Array(candidates[i..<i + 3])
            guard Geodesy.distance(points[0], points[1]) > 400, Geodesy.distance(points[1], points[2]) > 400,
                  let plan = try? router.route(RouteRequest(waypoints: points, category: .auto)) else { continue }
            return (points, plan)
        }
        throw FleetError(code: .notFound, message: "no routable ride among the seeded points")
    }

    @Test func theServerPlansARoadRouteForAVehicleThatSendsNone() throws {
        let (points, plan) = try ride()
        let server = try ServerProcess(store: "memory", arguments: ["--router", "routino:" + HelsinkiMap.directory!])
        defer { _ = server.stop() }
        _ = try send(server, "POST", "/v1/providers/p/vehicles?vehicleId=v1",
                     #"{"vehicleState":"ONLINE","supportedTripTypes":["EXCLUSIVE"],"maximumCapacity":4,"vehicleType":{"category":"AUTO"},"lastLocation":{"location":\#(point(points[0]))}}"#)
        _ = try send(server, "POST", "/v1/providers/p/trips?tripId=t1",
                     #"{"vehicleId":"v1","tripType":"EXCLUSIVE","pickupPoint":{"point":\#(point(points[1]))},"dropoffPoint":{"point":\#(point(points[2]))}}"#)
        let trip = try send(server, "GET", "/v1/providers/p/trips/t1")
        let remaining = try #require(trip["remainingDistanceMeters"] as? Double, "\(trip)")
        // The route runs from the vehicle to where the router put it on a road, then along the roads.
        let pickupMeters = Geodesy.distance(points[0], plan.points[0]) + plan.arrival(atWaypoint: 1).meters
        #expect(abs(remaining - pickupMeters) < 30, "the road distance to the pickup: \(remaining) m, the router's \(pickupMeters) m")
        #expect(remaining > Geodesy.distance(points[0], points[1]), "longer than the straight line")
        let route = try #require(trip["route"] as? [[String: Any]], "the rider sees the planned route: \(trip.keys.sorted())")
        #expect(route.count > 2)
        #expect(trip["lastLocationSnappable"] as? Bool == true)

        // Driving along the plan: the remaining distance follows the roads.
        let along = plan.points[plan.waypointIndices[1] / 2]
        _ = try send(server, "PUT", "/v1/providers/p/vehicles/v1?updateMask=lastLocation",
                     #"{"lastLocation":{"location":\#(point(along))}}"#)
        let later = try send(server, "GET", "/v1/providers/p/trips/t1")
        let closer = try #require(later["remainingDistanceMeters"] as? Double)
        #expect(closer < remaining)
        #expect(later["lastLocationSnappable"] as? Bool == true)
    }

    /// A dropoff far from every road of the map: the leg to the pickup keeps its roads, the vehicle's REST answer
    /// names the leg to the dropoff and why (`estimatedLegs`), and the server's log says so once, not per update.
    @Test func aDropoffWithoutARoadIsNamedInTheVehicleAndTheLogOnce() throws {
        let points = try ride().points
        let offMap = GeoPoint(latitude: 60.30, longitude: 24.94)
        let server = try ServerProcess(store: "memory", arguments: ["--router", "routino:" + HelsinkiMap.directory!])
        _ = try send(server, "POST", "/v1/providers/p/vehicles?vehicleId=v1",
                     #"{"vehicleState":"ONLINE","supportedTripTypes":["EXCLUSIVE"],"maximumCapacity":4,"vehicleType":{"category":"AUTO"},"lastLocation":{"location":\#(point(points[0]))}}"#)
        _ = try send(server, "POST", "/v1/providers/p/trips?tripId=t1",
                     #"{"vehicleId":"v1","tripType":"EXCLUSIVE","pickupPoint":{"point":\#(point(points[1]))},"dropoffPoint":{"point":\#(point(offMap))}}"#)
        let vehicle = try send(server, "GET", "/v1/providers/p/vehicles/v1")
        let legs = try #require(vehicle["estimatedLegs"] as? [[String: Any]], "\(vehicle.keys.sorted())")
        #expect(legs.count == 1)
        #expect(legs.first?["leg"] as? Int == 1, "the leg to waypoint 1, the dropoff: \(legs)")
        #expect(legs.first?["cause"] as? String == "POINT_OFF_MAP")
        #expect((legs.first?["reason"] as? String)?.contains("60.3") == true, "\(legs)")
        // The leg to the pickup is on the roads: as far as the router says of that leg alone.
        let trip = try send(server, "GET", "/v1/providers/p/trips/t1")
        let remaining = try #require(trip["remainingDistanceMeters"] as? Double, "\(trip)")
        let leg = try RoutinoRouter(directory: HelsinkiMap.directory!).route(RouteRequest(from: points[0], to: points[1]))
        let pickupMeters = Geodesy.distance(points[0], leg.points[0]) + leg.distanceMeters
        // The pickup is placed on the route where it comes nearest, which may be a few metres into the straight
        // line that leaves the road's end towards the dropoff.
        let roadEndToPickup = Geodesy.distance(leg.points[leg.points.count - 1], points[1])
        #expect(remaining > pickupMeters - 30 && remaining < pickupMeters + roadEndToPickup + 30,
                "\(remaining) m, the router's \(pickupMeters) m, the road's end \(roadEndToPickup) m from the pickup")
        for step in 1...3 {
            _ = try send(server, "PUT", "/v1/providers/p/vehicles/v1?updateMask=lastLocation",
                         #"{"lastLocation":{"location":\#(point(leg.points[min(step, leg.points.count - 1)]))}}"#)
        }
        #expect(server.stop() == 0)
        let lines = server.standardError.split(separator: "\n").filter { $0.contains("no road for") }
        #expect(lines.count == 1, "\(server.standardError)")
        #expect(lines.first?.contains("providers/p/vehicles/v1") == true && lines.first?.contains("POINT_OFF_MAP") == true
                && lines.first?.contains("waypoint 2 (trip t1 DROP_OFF_WAYPOINT_TYPE)") == true, "\(lines)")
    }

    @Test func theMapPagesDrawTheRoutingMapsRoads() throws {
        let routed = try ServerProcess(store: "memory", arguments: ["--router", "routino:" + HelsinkiMap.directory!])
        defer { _ = routed.stop() }
        let roads = try RawHTTP.exchange(routed.url, RawHTTP.request("GET", "/map/roads.geojson"))
        #expect(roads.status == 200 && roads.body.contains("FeatureCollection"), "\(roads.status ?? 0) \(roads.body.prefix(200))")
        let plain = try ServerProcess(store: "memory")
        defer { _ = plain.stop() }
        #expect(try RawHTTP.exchange(plain.url, RawHTTP.request("GET", "/map/roads.geojson")).status == 404)
    }

    @Test func aBadRouterIsAUsageErrorListingTheSchemes() throws {
        let run = try BinaryRunner(product: "fleet-admin").run(["serve", "--listen", "127.0.0.1:0", "--store", "memory", "--router", "osrm:x"])
        #expect(run.status == 2, "\(run)")
        #expect(run.error.contains("straight") && run.error.contains("routino:DIR"), "\(run.error)")
    }
}
