import FleetModel
import FleetTestSupport
import Foundation
import Testing

/// Bad input over the wire: each gets the right status and a Google error body, and the server
/// keeps serving.
@Suite(.serialized) struct WireInputTests {
    static let server = Result { try ServerProcess(store: "memory", arguments: ["--max-body", "65536"]) }
    static let vehicleBody = Array(#"{"vehicleState":"ONLINE","supportedTripTypes":["EXCLUSIVE"],"maximumCapacity":4,"vehicleType":{"category":"AUTO"}}"#.utf8)

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let request: [UInt8]
        /// The statuses acceptable; nil in the list means "the server may close without answering".
        let statuses: [Int?]
        /// Text the error body must contain (the gRPC status name, usually).
        let bodyContains: String?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "truncated body (Content-Length lies)",
             request: RawHTTP.request("POST", "/v1/providers/p/vehicles?vehicleId=t1", headers: [("Content-Length", "500")], body: Array(vehicleBody.prefix(40))),
             statuses: [400, nil], bodyContains: nil),
        Case(name: "malformed JSON names the position",
             request: RawHTTP.request("POST", "/v1/providers/p/vehicles?vehicleId=t2", body: Array(#"{"vehicleState": ONLINE}"#.utf8)),
             statuses: [400], bodyContains: "line 1, column"),
        Case(name: "a form body (curl -d without a JSON content type)",
             request: RawHTTP.request("POST", "/v1/providers/p/vehicles?vehicleId=t3", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array("vehicleState=ONLINE".utf8)),
             statuses: [415], bodyContains: "Content-Type"),
        Case(name: "JSON labelled as a form, as curl -d sends it (and a cross-origin form post)",
             request: RawHTTP.request("POST", "/v1/providers/p/vehicles?vehicleId=t3b", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: vehicleBody),
             statuses: [415], bodyContains: "UNSUPPORTED_MEDIA_TYPE"),
        Case(name: "JSON labelled text/plain, as a browser sends it cross-origin without a preflight",
             request: RawHTTP.request("POST", "/v1/providers/p/vehicles?vehicleId=t3d", headers: [("Content-Type", "text/plain")], body: vehicleBody),
             statuses: [415], bodyContains: "'text/plain'"),
        Case(name: "JSON with a charset parameter",
             request: RawHTTP.request("POST", "/v1/providers/p/vehicles?vehicleId=t3e", headers: [("Content-Type", "application/json; charset=utf-8")], body: vehicleBody),
             statuses: [200], bodyContains: "t3e"),
        Case(name: "wrong content type",
             request: RawHTTP.request("POST", "/v1/providers/p/vehicles?vehicleId=t3c", headers: [("Content-Type", "application/xml")], body: Array("<vehicle/>".utf8)),
             statuses: [415], bodyContains: "INVALID_ARGUMENT"),
        Case(name: "huge body",
             request: RawHTTP.request("POST", "/v1/providers/p/vehicles?vehicleId=t4", body: Array(repeating: UInt8(ascii: " "), count: 200_000) + vehicleBody),
             statuses: [413, nil], bodyContains: nil),
        Case(name: "invalid UTF-8 in the body",
             request: RawHTTP.request("POST", "/v1/providers/p/vehicles?vehicleId=t5", body: Array(#"{"licensePlate":{"countryCode":""#.utf8) + [0xC3, 0x28] + Array(#""}}"#.utf8)),
             statuses: [400], bodyContains: "INVALID_ARGUMENT"),
        Case(name: "deep JSON nesting",
             request: RawHTTP.request("POST", "/v1/providers/p/vehicles?vehicleId=t6", body: Array(repeating: UInt8(ascii: "["), count: 20_000) + Array(repeating: UInt8(ascii: "]"), count: 20_000)),
             statuses: [400], bodyContains: "INVALID_ARGUMENT"),
        Case(name: "wrong verb", request: RawHTTP.request("DELETE", "/v1/providers/p/vehicles:search"), statuses: [405], bodyContains: "UNIMPLEMENTED"),
        Case(name: "unknown path", request: RawHTTP.request("GET", "/v2/providers/p/vehicles"), statuses: [404], bodyContains: "NOT_FOUND"),
        Case(name: "path traversal", request: RawHTTP.request("GET", "/v1/providers/p/vehicles/../../../etc/passwd"), statuses: [404, 400], bodyContains: "\"error\""),
        Case(name: "encoded slash in an ID", request: RawHTTP.request("GET", "/v1/providers/p/vehicles/a%2Fb"), statuses: [400], bodyContains: "INVALID_ARGUMENT"),
        Case(name: "encoded dot-dot", request: RawHTTP.request("GET", "/v1/providers/p/vehicles/%2E%2E"), statuses: [404, 400], bodyContains: "\"error\""),
        Case(name: "invalid UTF-8 in the path", request: RawHTTP.request("GET", "/v1/providers/p/vehicles/%C3%28"), statuses: [404, 400], bodyContains: "\"error\""),
        Case(name: "a body where none is taken", request: RawHTTP.request("GET", "/v1/providers/p/vehicles/v1", body: Array("garbage".utf8)), statuses: [400], bodyContains: "INVALID_ARGUMENT"),
        // Found by `make fuzz` (rest target): a query parameter named "." or ".." trapped the server.
        Case(name: "a query parameter named '.'", request: RawHTTP.request("GET", "/v1/providers/p/vehicles?vehicleTypeCategories=AUTO&.=1"), statuses: [400], bodyContains: "INVALID_ARGUMENT"),
        Case(name: "a query parameter named '..'", request: RawHTTP.request("GET", "/v1/providers/p/trips/t1?..=1"), statuses: [400], bodyContains: "INVALID_ARGUMENT"),
        Case(name: "unknown field", request: RawHTTP.request("POST", "/v1/providers/p/vehicles?vehicleId=t7", body: Array(#"{"wheels":4}"#.utf8)), statuses: [400], bodyContains: "Unknown name"),
    ]

    @Test(arguments: cases)
    func badInputGetsTheRightStatusAndTheServerKeepsServing(input: Case) throws {
        let server = try Self.server.get()
        let answer = try RawHTTP.exchange(server.url, input.request)
        #expect(input.statuses.contains(answer.status), "\(input.name): status \(String(describing: answer.status)), body \(answer.body.prefix(300))")
        if let text = input.bodyContains, answer.status != nil {
            #expect(answer.body.contains(text), "\(input.name): \(answer.body.prefix(300))")
        }
        let health = try RawHTTP.exchange(server.url, RawHTTP.request("GET", "/healthz"))
        #expect(health.status == 200, "the server stopped serving after \(input.name)")
    }
}
