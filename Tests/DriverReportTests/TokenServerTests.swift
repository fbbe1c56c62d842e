import FleetGeo
import FleetModel
import FleetTestSupport
import Foundation
import Testing

@Suite("driver-report with a token server", .serialized)
struct TokenServerTests {
    @Test("--token-url fetches the vehicle's token (its ID filled into the URL) before reporting",
          .enabled(if: TokenServer.isAvailable, "python3 is not installed (make setup installs it)"))
    func fetchesToken() throws {
        let fleet = try SharedFleet()
        try fleet.createVehicle("cab-10")
        let server = try TokenServer(folder: fleet.folder)
        let run = try Products.run(fleet.transportArguments + [
            "--vehicle", "cab-10", "--source", "simulate:polyline:" + Polyline.encode(Array(testRoute.prefix(2))), "--speedup", "50",
            "--token-url", "http://127.0.0.1:\(server.port)/token/driver/{vehicle}",
        ], folder: fleet.folder)
        #expect(run.status == 0, "\(run.log)")
        #expect(server.requests == ["/token/driver/cab-10"], "one fetch: the token is cached for its hour")
        #expect(try fleet.vehicle("cab-10").vehicleState == .offline)
    }

    @Test("Over http a token the server refuses (401) is fetched again once, then cached for the vehicle",
          .enabled(if: TokenServer.isAvailable, "python3 is not installed (make setup installs it)"))
    func refreshesAfterUnauthenticated() throws {
        let secrets = try FleetTestSupport.Products.temporaryDirectory("driver-auth")
        defer { try? FileManager.default.removeItem(at: secrets) }
        let tokens = try MintedTokens(folder: secrets, provider: "demo")
        let fleet = try SharedFleet(overHTTP: true, serverArguments: tokens.serverArguments)
        try fleet.createVehicle("cab-12")
        let stale = try MintedTokens(folder: secrets, provider: "demo", secret: "another-secret-of-at-least-thirty-two-bytes")
            .mint(role: "driver", ["--vehicle", "cab-12"])
        let good = try tokens.mint(role: "driver", ["--vehicle", "cab-12"])
        let server = try TokenServer(folder: fleet.folder, tokens: ["cab-12": [stale, good]])
        let run = try Products.run(fleet.transportArguments + [
            "--vehicle", "cab-12", "--source", "simulate:polyline:" + Polyline.encode(Array(testRoute.prefix(2))), "--speedup", "50",
            "--token-url", server.url + "/token/{provider}/{vehicle}",
        ], folder: fleet.folder)
        #expect(run.status == 0, "\(run.log)")
        #expect(server.requests == ["/token/demo/cab-12", "/token/demo/cab-12"], "one fetch at start, one forced by the 401")
        #expect(!run.log.contains("UNAUTHENTICATED"), "the refresh happens inside the call: no update failed\n\(run.log)")
        #expect(try fleet.vehicle("cab-12").vehicleState == .offline)
    }

    @Test("A token server that answers without the configured key is a clear error (exit 26)",
          .enabled(if: TokenServer.isAvailable, "python3 is not installed (make setup installs it)"))
    func wrongKey() throws {
        let fleet = try SharedFleet()
        try fleet.createVehicle("cab-11")
        let server = try TokenServer(folder: fleet.folder)
        let run = try Products.run(fleet.transportArguments + [
            "--vehicle", "cab-11", "--source", "nmea:-", "--token-url", "http://127.0.0.1:\(server.port)/t/{vehicle}",
            "--token-key", "access_token",
        ], folder: fleet.folder)
        #expect(run.status == 26, "\(run.log)")
        let log = run.log.replacingOccurrences(of: "\n", with: " ")
        #expect(log.contains(#"without a string "access_token""#), "\(run.log)")
        #expect(log.contains("--token-key"))
    }

    /// A navigating driver sends only what a driver token may change (location, state, route segment,
    /// remaining distance and time): once it sent the waypoints too, and every update was refused.
    @Test("A navigating driver with a driver token keeps reporting: the route goes out, nothing is refused")
    func navigatesWithADriverToken() throws {
        let secrets = try FleetTestSupport.Products.temporaryDirectory("driver-nav-auth")
        defer { try? FileManager.default.removeItem(at: secrets) }
        let tokens = try MintedTokens(folder: secrets, provider: "demo")
        let fleet = try SharedFleet(overHTTP: true, serverArguments: tokens.serverArguments)
        try fleet.createVehicle("cab-14")
        let pickup = Geodesy.destination(from: testRoute[1], bearing: 0, meters: 300)
        _ = try fleet.withEngine { engine in
            try engine.createTrip(CreateTripRequest(parent: "providers/\(fleet.provider)", tripId: "ride-14", trip: Trip(
                vehicleId: "cab-14", tripType: .exclusive,
                pickupPoint: TerminalLocation(point: LatLng(latitude: pickup.latitude, longitude: pickup.longitude)),
                dropoffPoint: TerminalLocation(point: LatLng(latitude: testRoute[2].latitude, longitude: testRoute[2].longitude)))))
        }
        let route = "polyline:" + Polyline.encode(testRoute)
        let run = try Products.run(fleet.transportArguments + [
            "--vehicle", "cab-14", "--source", "simulate:" + route, "--route", route, "--speedup", "40",
            "--token", try tokens.mint(role: "driver", ["--vehicle", "cab-14"]),
        ], folder: fleet.folder)
        #expect(run.status == 0, "\(run.log)")
        #expect(!run.log.contains("PERMISSION_DENIED"), "\(run.log)")
        #expect(run.log.contains("currentRouteSegment"), "the route went out: \(run.log)")
        #expect(!run.log.contains("waypoints,") && !run.log.contains(",waypoints"), "the driver never sends the waypoints: \(run.log)")
        #expect(try fleet.vehicle("cab-14").vehicleState == .offline)
    }
}
