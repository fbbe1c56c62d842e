import FleetModel
import FleetTestSupport
import Foundation
import Testing

/// What a token may see beyond the call matrix, against a real `fleet-admin serve`: a consumer sees a
/// shared trip as the journey-sharing view shows it, over REST, gRPC and `:watch`; `/metrics` needs a
/// server or fleet-reader token, or the `--metrics-listen` address.
@Suite(.serialized) struct TokenScopeTests {
    typealias Call = TenantBindingTests

    @Test func aConsumerNeverSeesItsCoRidersTripIDs() throws {
        let folder = try TenantBindingTests.Folder()
        let secret = try folder.write("p1.secret", "secret-of-provider-one-at-least-thirty-two-bytes\n")
        let server = try ServerProcess(arguments: ["--jwt-secret-file", "p1=\(secret)", "--grpc-listen", "127.0.0.1:0"])
        defer { server.stop() }
        let admin = try Call.mint(["--role", "server", "--secret-file", secret])
        let vehicle = #"{"vehicleState":"ONLINE","supportedTripTypes":["SHARED"],"maximumCapacity":4,"vehicleType":{"category":"AUTO"},"lastLocation":{"location":{"latitude":52.52,"longitude":13.40}}}"#
        #expect(try Call.rest(server, "POST", "/v1/providers/p1/vehicles?vehicleId=van", token: admin, body: vehicle).status == 200)
        // rider-two first: rider-one's remaining waypoints then pass through rider-two's.
        for (trip, offset) in [("rider-two", 0.01), ("rider-one", 0.0)] {
            let body = #"{"vehicleId":"van","tripType":"SHARED","pickupPoint":{"point":{"latitude":\#(52.53 + offset),"longitude":13.41}},"dropoffPoint":{"point":{"latitude":\#(52.55 + offset),"longitude":13.45}}}"#
            let created = try Call.rest(server, "POST", "/v1/providers/p1/trips?tripId=\(trip)", token: admin, body: body)
            #expect(created.status == 200, "\(created.body)")
        }
        let asServer = try Call.rest(server, "GET", "/v1/providers/p1/trips/rider-one", token: admin)
        try #require(asServer.body.contains(#""tripId":"rider-two""#), "the default view names the co-rider to a server: \(asServer.body)")

        let consumer = try Call.mint(["--role", "consumer", "--trip", "rider-one", "--secret-file", secret])
        for query in ["", "?view=SDK", "?view=TRIP_VIEW_UNSPECIFIED"] {
            let read = try Call.rest(server, "GET", "/v1/providers/p1/trips/rider-one\(query)", token: consumer)
            #expect(read.status == 200, "\(read.body)")
            #expect(read.body.contains(#""tripId":"rider-one""#), "its own trip ID stays: \(read.body)")
            #expect(!read.body.contains("rider-two"), "\(query): \(read.body)")
        }
        let watched = try RawHTTP.exchange(server.url, RawHTTP.request("GET", "/v1/providers/p1/trips/rider-one:watch?view=SDK",
                                                                       headers: [("Authorization", "Bearer \(consumer)")]), halfClose: false, timeout: 2)
        #expect(watched.body.contains("event: trip"), "\(watched.body)")
        #expect(!watched.body.contains("rider-two"), "the watch too: \(watched.body)")

        let request = GetTripRequest(name: "providers/p1/trips/rider-one", view: .sdk).protobufBytes()
        let overGRPC = try Call.grpc(server, "/maps.fleetengine.v1.TripService/GetTrip", request, token: consumer)
        #expect(overGRPC.status == 0, "\(overGRPC.output)")
        #expect(overGRPC.output.contains("rider-one"), "\(overGRPC.output)")
        #expect(!overGRPC.output.contains("rider-two"), "gRPC too: \(overGRPC.output)")
    }

    @Test func metricsNeedAReadersTokenOrTheMetricsAddress() throws {
        let folder = try TenantBindingTests.Folder()
        let secret = try folder.write("p1.secret", "secret-of-provider-one-at-least-thirty-two-bytes\n")
        let server = try ServerProcess(arguments: ["--jwt-secret-file", "p1=\(secret)", "--metrics-listen", "127.0.0.1:0"])
        defer { server.stop() }
        let metrics = try Call.rest(server, "GET", "/metrics", token: nil)
        #expect(metrics.status == 403, "no token: \(metrics.body)")
        let consumer = try Call.mint(["--role", "consumer", "--trip", "t1", "--secret-file", secret])
        #expect(try Call.rest(server, "GET", "/metrics", token: consumer).status == 403)
        for role in ["fleet-reader", "server"] {
            let reader = try Call.mint(["--role", role, "--secret-file", secret])
            let read = try Call.rest(server, "GET", "/metrics", token: reader)
            #expect(read.status == 200, "\(role): \(read.body)")
            #expect(read.body.contains("# TYPE"), "\(read.body)")
        }

        let start = try #require(server.banner.range(of: "metrics http://"), "\(server.banner)")
        let address = "http://" + server.banner[start.upperBound...].prefix { $0 != " " }
        let scraped = try RawHTTP.exchange(address, RawHTTP.request("GET", "/metrics"))
        #expect(scraped.status == 200, "the metrics address needs no token: \(scraped.body)")
        #expect(scraped.body.contains("# TYPE"))
        let other = try RawHTTP.exchange(address, RawHTTP.request("GET", "/v1/providers/p1/vehicles"))
        #expect(other.status == 404, "and serves nothing else: \(other.body)")
    }
}
