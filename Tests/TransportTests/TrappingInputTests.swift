import FleetGeo
import FleetTestSupport
import Foundation
import Testing

/// Requests that once stopped `fleet-admin serve` with a trap: each is refused (or served), and the
/// server process goes on serving.
@Suite(.serialized) struct TrappingInputTests {
    static let json = [("Content-Type", "application/json")]

    /// About 1 KB: 120 points zig-zagging between (0,0) and (0,179), ~2.4 million km of route, more metres
    /// than Fleet Engine's int32 distance fields hold.
    static let zigZag = Polyline.encode((0..<120).map { GeoPoint(latitude: 0, longitude: $0 % 2 == 0 ? 0 : 179) })

    func send(_ server: ServerProcess, _ method: String, _ target: String, _ body: String) throws -> RawHTTP.Answer {
        try RawHTTP.exchange(server.url, RawHTTP.request(method, target, headers: Self.json, body: Array(body.utf8)))
    }

    @Test("A route around the world and back, sent for a vehicle with a trip or before its trip is created",
          arguments: [true, false])
    func aRouteLongerThanTheEarth(tripFirst: Bool) throws {
        let server = try ServerProcess(store: "memory")
        defer { _ = server.stop() }
        _ = try send(server, "POST", "/v1/providers/p/vehicles?vehicleId=v1",
                     #"{"vehicleState":"ONLINE","supportedTripTypes":["EXCLUSIVE"],"maximumCapacity":4,"vehicleType":{"category":"AUTO"},"lastLocation":{"location":{"latitude":0,"longitude":0.001}}}"#)
        let trip = #"{"vehicleId":"v1","tripType":"EXCLUSIVE","pickupPoint":{"point":{"latitude":0,"longitude":1}},"dropoffPoint":{"point":{"latitude":0,"longitude":2}}}"#
        if tripFirst { #expect(try send(server, "POST", "/v1/providers/p/trips?tripId=t1", trip).status == 200) }
        let update = try send(server, "PUT", "/v1/providers/p/vehicles/v1?updateMask=currentRouteSegment,lastLocation",
                              #"{"currentRouteSegment":"\#(Self.zigZag)","lastLocation":{"location":{"latitude":0,"longitude":0.002}}}"#)
        #expect(update.status == 400, "\(update.body)")
        #expect(update.body.contains("vehicle.currentRouteSegment"), "\(update.body)")
        if !tripFirst { #expect(try send(server, "POST", "/v1/providers/p/trips?tripId=t1", trip).status == 200) }
        let read = try RawHTTP.exchange(server.url, RawHTTP.request("GET", "/v1/providers/p/trips/t1"))
        #expect(read.status == 200, "the server still serves: \(read.body)")
        #expect(server.process.isRunning)
    }

    /// A filter nested 10,000 parentheses deep once ended the server with SIGSEGV (the parser recursed
    /// once per `(`): now it is INVALID_ARGUMENT naming the filter and where the nesting went too deep.
    @Test func aFilterNestedTenThousandDeep() throws {
        let server = try ServerProcess(store: "memory")
        defer { _ = server.stop() }
        let deep = String(repeating: "(", count: 10_000) + "attributes.a=b" + String(repeating: ")", count: 10_000)
        let list = try RawHTTP.exchange(server.url, RawHTTP.request("GET", "/v1/providers/p/vehicles?vehicleTypeCategories=AUTO&filter=\(deep)"))
        #expect(list.status == 400, "\(list.body)")
        #expect(list.body.contains("INVALID_ARGUMENT") && list.body.contains("at character 33"), "\(list.body)")
        let search = try send(server, "POST", "/v1/providers/p/vehicles:search", """
            {"pickupPoint": {"point": {"latitude": 52.53, "longitude": 13.41}}, "pickupRadiusMeters": 2000, "count": 5, \
            "minimumCapacity": 1, "tripTypes": ["EXCLUSIVE"], "vehicleTypes": [{"category": "AUTO"}], \
            "orderBy": "PICKUP_POINT_ETA", "filter": "\(deep)"}
            """)
        #expect(search.status == 400, "\(search.body)")
        #expect(search.body.contains("at character 33"), "\(search.body)")
        let read = try RawHTTP.exchange(server.url, RawHTTP.request("GET", "/v1/providers/p/vehicles?vehicleTypeCategories=AUTO&filter=attributes.a%3Db"))
        #expect(read.status == 200, "the server still serves: \(read.body)")
        #expect(server.process.isRunning)
    }

    /// A query parameter name dotted 20,000 levels deep (a 40 KB URL) (`header.a.a.a…`) once became JSON nested as deep,
    /// which Swift frees by recursion, and the server died: now it is refused as it is bound.
    @Test func aQueryParameterNameDottedTwentyThousandDeep() throws {
        let server = try ServerProcess(store: "memory")
        defer { _ = server.stop() }
        let name = "header" + String(repeating: ".a", count: 20_000)
        let get = try RawHTTP.exchange(server.url, RawHTTP.request("GET", "/v1/providers/p/trips/t1?\(name)=1"))
        #expect(get.status == 400, "\(get.body)")
        let read = try RawHTTP.exchange(server.url, RawHTTP.request("GET", "/v1/providers/p/vehicles?vehicleTypeCategories=AUTO"))
        #expect(read.status == 200, "the server still serves: \(read.body)")
        #expect(server.process.isRunning)
    }
}
