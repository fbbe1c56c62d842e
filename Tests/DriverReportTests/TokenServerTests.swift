import FleetGeo
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
        let tokens = try MintedTokens(folder: secrets)
        let fleet = try SharedFleet(overHTTP: true, serverArguments: tokens.serverArguments)
        try fleet.createVehicle("cab-12")
        let stale = try MintedTokens(folder: secrets, secret: "another-secret-of-at-least-thirty-two-bytes")
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
}
