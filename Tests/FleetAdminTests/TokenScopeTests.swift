import FleetAuth
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

/// A `:watch` lives no longer than the token that opened it: the server ends it with an
/// UNAUTHENTICATED `error` event when the token expires (gRPC serves unary calls only, so there is no
/// gRPC stream to end).
@Suite(.serialized) struct WatchExpiryTests {
    @Test func aWatchEndsWithUnauthenticatedWhenItsTokenExpires() throws {
        let folder = try TenantBindingTests.Folder()
        let tokens = try MintedTokens(folder: folder.url, provider: "p1")
        let server = try ServerProcess(arguments: tokens.serverArguments)
        defer { server.stop() }
        let admin = try tokens.mint(role: "server")
        let vehicle = #"{"vehicleState":"ONLINE","supportedTripTypes":["EXCLUSIVE"],"maximumCapacity":4,"vehicleType":{"category":"AUTO"},"lastLocation":{"location":{"latitude":52.52,"longitude":13.40}}}"#
        #expect(try TenantBindingTests.rest(server, "POST", "/v1/providers/p1/vehicles?vehicleId=car", token: admin, body: vehicle).status == 200)
        let trip = #"{"tripType":"EXCLUSIVE","pickupPoint":{"point":{"latitude":52.5,"longitude":13.4}}}"#
        #expect(try TenantBindingTests.rest(server, "POST", "/v1/providers/p1/trips?tripId=t1", token: admin, body: trip).status == 200)

        for (path, role, trip) in [("/v1/providers/p1/trips/t1:watch", Role.consumer, Optional("t1")),
                                   ("/v1/providers/p1/vehicles:watch", Role.fleetReader, nil)] {
            let token = try tokens.mintExpiring(role: role, tripID: trip, acceptedFor: 3)
            // The server closes the stream once the token expires: the read ends there, not at the timeout.
            let watched = try RawHTTP.exchange(server.url, RawHTTP.request("GET", path, headers: [("Authorization", "Bearer \(token)")]),
                                               halfClose: false, timeout: 60)
            #expect(watched.status == 200, "\(path): \(watched.body)")
            let error = try #require(watched.body.range(of: "event: error"), "\(path) ended without an error event: \(watched.body)")
            #expect(watched.body[..<error.lowerBound].contains(path.hasSuffix("vehicles:watch") ? "event: vehicle" : "event: trip"), "\(watched.body)")
            let ending = String(watched.body[error.lowerBound...])
            #expect(ending.contains("UNAUTHENTICATED") && ending.contains("JWT_EXPIRED"), "\(path): \(ending)")
        }
    }
}
