import FleetTestSupport
import Foundation
import Testing

/// Values that decode but mean nothing, sent over the wire to a real `fleet-admin serve`: each is
/// 400 INVALID_ARGUMENT with a Google error body naming the field, and nothing is stored.
@Suite(.serialized) struct RequestValueWireTests {
    static let server = Result { try ServerProcess(store: "memory") }
    static let vehicle = #"{"vehicleState":"ONLINE","supportedTripTypes":["EXCLUSIVE"],"maximumCapacity":4,"vehicleType":{"category":"AUTO"},"lastLocation":{"location":{"latitude":52.5,"longitude":13.4}}}"#

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let method: String
        let target: String
        let body: String
        /// The field the error must name, in the message and the body.
        let field: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "NaN speed", method: "PUT", target: "/v1/providers/p/vehicles/base?updateMask=lastLocation",
             body: #"{"lastLocation":{"location":{"latitude":52.5,"longitude":13.4},"speed":"NaN"}}"#, field: "vehicle.lastLocation.speed"),
        Case(name: "Infinity horizontalAccuracy", method: "PUT", target: "/v1/providers/p/vehicles/base?updateMask=lastLocation",
             body: #"{"lastLocation":{"location":{"latitude":52.5,"longitude":13.4},"horizontalAccuracy":"Infinity"}}"#,
             field: "vehicle.lastLocation.horizontalAccuracy"),
        Case(name: "unknown vehicleState number on create", method: "POST", target: "/v1/providers/p/vehicles?vehicleId=v99",
             body: #"{"vehicleState":99,"supportedTripTypes":["EXCLUSIVE"],"maximumCapacity":4,"vehicleType":{"category":"AUTO"}}"#,
             field: "vehicle.vehicleState"),
        Case(name: "unknown vehicleState number on update", method: "PUT", target: "/v1/providers/p/vehicles/base?updateMask=vehicleState",
             body: #"{"vehicleState":99}"#, field: "vehicle.vehicleState"),
        Case(name: "NaN viewport", method: "GET",
             target: "/v1/providers/p/vehicles?vehicleTypeCategories=AUTO&viewport.low.latitude=NaN&viewport.low.longitude=13&viewport.high.latitude=53&viewport.high.longitude=14",
             body: "", field: "viewport.low.latitude"),
        Case(name: "invalid UTF-8 in a query parameter", method: "POST", target: "/v1/providers/p/vehicles?vehicleId=%FF%C0",
             body: vehicle, field: "vehicleId"),
        Case(name: "invalid UTF-8 in a read's query parameter", method: "GET",
             target: "/v1/providers/p/vehicles?vehicleTypeCategories=AUTO&pageToken=%C3%28", body: "", field: "pageToken"),
    ]

    @Test(arguments: cases)
    func refusedNamingTheField(input: Case) throws {
        let server = try Self.server.get()
        let created = try RawHTTP.exchange(server.url, RawHTTP.request("POST", "/v1/providers/p/vehicles?vehicleId=base", body: Array(Self.vehicle.utf8)))
        #expect(created.status == 200 || created.body.contains("ALREADY_EXISTS"))
        let answer = try RawHTTP.exchange(server.url, RawHTTP.request(input.method, input.target, body: Array(input.body.utf8)))
        #expect(answer.status == 400, "\(input.name): \(answer.body.prefix(300))")
        #expect(answer.body.contains(#""status":"INVALID_ARGUMENT""#) || answer.body.contains(#""status": "INVALID_ARGUMENT""#), "\(answer.body)")
        #expect(answer.body.contains(input.field), "\(input.name): \(answer.body.prefix(300))")
        let stored = try RawHTTP.exchange(server.url, RawHTTP.request("GET", "/v1/providers/p/vehicles/base"))
        #expect(stored.status == 200)
        // Nothing of the refused values: not in the vehicle's fields (its times are the clock's digits, which may hold "99").
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(stored.body.utf8)) as? [String: Any])
        let location = fields["lastLocation"] as? [String: Any] ?? [:]
        #expect(fields["vehicleState"] as? String == "ONLINE" && location["speed"] == nil && location["horizontalAccuracy"] == nil,
                "\(stored.body)")
        #expect(!stored.body.contains("NaN") && !stored.body.contains("Infinity"), "\(stored.body)")
        let lossy = try RawHTTP.exchange(server.url, RawHTTP.request("GET", "/v1/providers/p/vehicles/%EF%BF%BD%EF%BF%BD"))
        #expect(lossy.status == 404, "nothing was stored under the U+FFFD form of the ID")
    }
}
