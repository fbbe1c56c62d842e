import FleetErrors
import FleetModel
import FleetTestSupport
import Foundation
import Testing
import FleetAuth

/// `consumer-follow` over http against a real `fleet-admin serve --jwt-secret-file`: consumer tokens
/// scoped to one trip, given with --token or fetched from a token server with --token-url.
@Suite(.serialized) struct TokenAuthTests {
    /// A served store with two NEW trips, `ride-1` (the fixture's) and `ride-2`, and the secret the server checks.
    final class TwoTrips {
        let folder: URL
        let tokens: MintedTokens
        let trip: SharedStoreTrip

        init() throws {
            folder = try Products.temporaryDirectory("consumer-auth")
            tokens = try MintedTokens(folder: folder, provider: SharedStoreTrip.provider)
            trip = try SharedStoreTrip(.http, serverArguments: tokens.serverArguments)
            _ = try trip.api.createTrip(CreateTripRequest(
                parent: "providers/\(SharedStoreTrip.provider)", tripId: "ride-2",
                trip: Trip(tripType: .exclusive, pickupPoint: TerminalLocation(point: SharedStoreTrip.point(13.41)))))
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        /// `--transport URL --provider shared TRIP`.
        func follow(_ tripID: String) -> [String] {
            trip.wiringArguments + ["--provider", SharedStoreTrip.provider, tripID]
        }
    }

    private static func events(_ output: String) -> [JSON] {
        output.split(separator: "\n").compactMap { try? JSON.parse(String($0)) }
    }

    /// Standard error with its lines, wrapped to the terminal's width, joined again.
    private static func unwrapped(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test func aConsumerTokenForTheTripFollowsItAndNoTokenIsRefused() throws {
        let fixture = try TwoTrips()
        let token = try fixture.tokens.mint(role: "consumer", ["--trip", "ride-1"])
        let followed = try FollowProcess.run(fixture.follow("ride-1") + ["--json", "--until", "NEW", "--fail-fast", "--token", token])
        #expect(followed.status == 0, "\(followed.error)")
        let events = Self.events(followed.output)
        #expect(events.first { $0["event"] == "tripStatus" }?["value"] == "NEW", "\(followed.output)")
        #expect(!events.contains { $0["event"] == "error" }, "\(followed.output)")

        // The server does check: without a token the same follow is refused.
        let refused = try FollowProcess.run(fixture.follow("ride-1") + ["--json", "--fail-fast"])
        #expect(refused.status == 17, "PERMISSION_DENIED (JWT missing): \(refused)")
    }

    @Test func aTokenForAnotherTripIsPermissionDeniedWithTheCataloguesCauseAndRemedy() throws {
        let fixture = try TwoTrips()
        let token = try fixture.tokens.mint(role: "consumer", ["--trip", "ride-1"])
        let cause = ErrorCause.jwtForOtherResource

        // Without --fail-fast: an error event that needs action, retried at the interval until stopped.
        let process = try FollowProcess(fixture.follow("ride-2") + ["--json", "--interval", "1s", "--token", token])
        #expect(process.waitForLines { !$0.isEmpty }, "\(process.error)")
        process.signal(SIGINT)
        #expect(process.waitForExit() == 130)
        let event = try #require(Self.events(process.output).first)
        #expect(event["event"] == "error")
        #expect(event["trip"] == "providers/shared/trips/ride-2")
        #expect(event["value"]?["code"] == "PERMISSION_DENIED")
        #expect(event["value"]?["number"] == 7)
        #expect(event["value"]?["causeId"] == .string(cause.id))
        #expect(event["value"]?["cause"] == .string(cause.summary))
        #expect(event["value"]?["remedy"] == .string(cause.remedy))
        #expect(event["value"]?["recovering"] == false)
        #expect(event["value"]?["retryInSeconds"] == 1)
        #expect(event["value"]?["message"]?.stringValue?.contains("JWT signed for another trip") == true, "\(event)")

        // With --fail-fast: the same event, the explanation on standard error, exit 10 + 7.
        let failed = try FollowProcess.run(fixture.follow("ride-2") + ["--json", "--fail-fast", "--token", token])
        #expect(failed.status == 17, "\(failed)")
        let events = Self.events(failed.output)
        #expect(events.count == 1)
        #expect(events.first?["value"]?["causeId"] == .string(cause.id))
        #expect(events.first?["value"]?["retryInSeconds"] == .null)
        let explanation = Self.unwrapped(failed.error)
        #expect(explanation.contains("consumer-follow: PERMISSION_DENIED"), "\(failed.error)")
        #expect(explanation.contains("Cause: \(cause.id): \(cause.summary)"))
        #expect(explanation.contains("Remedy: \(cause.remedy)"))
    }

    @Test(.enabled(if: TokenServer.isAvailable, "python3 is not installed (make setup installs it)"))
    func aTokenURLGivesTheTripsTokenAndA401FetchesAFreshOne() throws {
        let fixture = try TwoTrips()
        // The first answer is signed with another secret (the server answers 401), the second is good.
        let stale = try MintedTokens(folder: fixture.folder, provider: SharedStoreTrip.provider, secret: "another-secret-of-at-least-thirty-two-bytes")
            .mint(role: "consumer", ["--trip", "ride-1"])
        let good = try fixture.tokens.mint(role: "consumer", ["--trip", "ride-1"])
        let server = try TokenServer(folder: fixture.folder, tokens: ["ride-1": [stale, good]])
        let followed = try FollowProcess.run(fixture.follow("ride-1") + [
            "--json", "--until", "NEW", "--fail-fast", "--token-url", server.url + "/consumer/{provider}/{trip}",
        ])
        #expect(followed.status == 0, "\(followed.error)")
        #expect(Self.events(followed.output).first { $0["event"] == "tripStatus" }?["value"] == "NEW", "\(followed.output)")
        #expect(server.requests == ["/consumer/shared/ride-1", "/consumer/shared/ride-1"],
                "one fetch at start, one forced by the 401; the good token is then cached for the trip")
    }

    @Test(.enabled(if: TokenServer.isAvailable, "python3 is not installed (make setup installs it)"))
    func aTokenURLThatGivesNoTokenEndsTheRunWithUnauthenticated() throws {
        let fixture = try TwoTrips()
        let garbage = try TokenServer(folder: fixture.folder, body: "<html>teapot</html>")
        for (url, reason) in [("http://127.0.0.1:9/consumer/{trip}", "--token-url http://127.0.0.1:9/consumer/ride-1: "),
                              (garbage.url + "/consumer/{trip}", "did not answer with a JSON object: <html>teapot</html>")] {
            let run = try FollowProcess.run(fixture.follow("ride-1") + ["--json", "--token-url", url])
            #expect(run.status == 26, "exit 10 + UNAUTHENTICATED, without --fail-fast too: \(run)")
            #expect(run.output.isEmpty, "nothing followed: \(run.output)")
            let explanation = Self.unwrapped(run.error)
            #expect(explanation.contains("consumer-follow: UNAUTHENTICATED"), "\(run.error)")
            #expect(explanation.contains(reason), "\(run.error)")
            #expect(explanation.contains("Cause: \(ErrorCause.tokenUnavailable.id)"), "\(run.error)")
        }
        #expect(garbage.requests == ["/consumer/ride-1"])

        let notHTTP = try FollowProcess.run(fixture.follow("ride-1") + ["--token-url", "ftp://tokens.example/{trip}"])
        #expect(notHTTP.status == 2, "\(notHTTP)")
        #expect(Self.unwrapped(notHTTP.error).contains("--token-url must be an http:// or https:// URL"))
        let two = try FollowProcess.run(fixture.follow("ride-1") + ["--token", "x", "--token-url", garbage.url])
        #expect(two.status == 2, "\(two)")
        #expect(Self.unwrapped(two.error).contains("give only one of --token, --token-file and --token-url"))
    }
}

/// A watch the server ends because its token expired: consumer-follow fetches a new token from its
/// token URL and follows on, with no error and no change lost.
@Suite(.serialized) struct WatchTokenRenewalTests {
    @Test(.enabled(if: TokenServer.isAvailable, "python3 is not installed (make setup installs it)"))
    func anExpiredWatchTokenIsRenewedFromTheTokenURL() throws {
        let fixture = try TokenAuthTests.TwoTrips()
        let expiring = try fixture.tokens.mintExpiring(role: .consumer, tripID: "ride-1", acceptedFor: 3)
        let good = try fixture.tokens.mint(role: "consumer", ["--trip", "ride-1"])
        let server = try TokenServer(folder: fixture.folder, tokens: ["ride-1": [expiring, good]])
        let follow = try FollowProcess(fixture.follow("ride-1") + [
            "--json", "--until", "ENROUTE_TO_PICKUP", "--token-url", server.url + "/consumer/{provider}/{trip}",
        ])
        #expect(follow.waitForLines { $0.contains { $0.contains(#""tripStatus""#) } }, "\(follow.output)")
        // The first token expires while the watch is open: the server ends the watch, the follower asks for a new token.
        let asked = server.requests(atLeast: 2)
        #expect(asked == ["/consumer/shared/ride-1", "/consumer/shared/ride-1"], "a new token after the first expired: \(asked)")
        try fixture.trip.assign()
        try fixture.trip.setStatus(.enrouteToPickup)
        let status = follow.waitForExit()
        #expect(status == 0, "\(follow.error)")
        let lines = follow.output.split(separator: "\n")
        #expect(lines.contains { $0.contains("ENROUTE_TO_PICKUP") }, "the change after the renewal arrives: \(follow.output)")
        #expect(!lines.contains { $0.contains(#""event":"error""#) }, "no error on the way: \(follow.output)")
    }

    @Test(.enabled(if: TokenServer.isAvailable, "python3 is not installed (make setup installs it)"))
    func anExpiredShipmentWatchTokenIsRenewedFromTheTokenURL() throws {
        let folder = try Products.temporaryDirectory("consumer-shipment-auth")
        defer { try? FileManager.default.removeItem(at: folder) }
        let tokens = try MintedTokens(folder: folder, provider: nil)
        let shipment = try SharedStoreShipment(serverArguments: tokens.serverArguments)
        let expiring = try tokens.mintExpiring(role: .consumer, trackingID: SharedStoreShipment.trackingID, acceptedFor: 3)
        let good = try tokens.mint(role: "consumer", ["--tracking", SharedStoreShipment.trackingID])
        let server = try TokenServer(folder: folder, tokens: [SharedStoreShipment.trackingID: [expiring, good]])
        let follow = try FollowProcess(shipment.arguments + ["--json", "--token-url", server.url + "/consumer/{provider}/{tracking}"])
        #expect(follow.waitForLines { $0.contains { $0.contains(#""remainingStopCount""#) } }, "\(follow.output) \(follow.error)")
        // The first token expires while the watch is open: the server ends the watch, the follower asks for a new token.
        let asked = server.requests(atLeast: 2)
        let path = "/consumer/\(SharedStoreShipment.provider)/\(SharedStoreShipment.trackingID)"
        #expect(asked == [path, path], "a new token after the first expired: \(asked)")
        try shipment.move(to: (48.105, 11.510))
        #expect(follow.waitForLines { $0.contains { $0.contains(#""vehicleLocation""#) && $0.contains("48.105") } },
                "the move after the renewal arrives: \(follow.output)")
        try shipment.finish(.succeeded)
        #expect(follow.waitForExit() == 0, "\(follow.error)")
        let lines = follow.output.split(separator: "\n")
        #expect(lines.contains { $0.contains(#""taskOutcome""#) && $0.contains("SUCCEEDED") }, "\(follow.output)")
        #expect(!lines.contains { $0.contains(#""event":"error""#) }, "no error on the way: \(follow.output)")
        let admin = try tokens.mint(role: "server")
        #expect(try shipment.server.calls("WatchTaskTrackingInfo", token: admin) >= 2, "watched, and watched again with the new token")
        #expect(try shipment.server.calls("GetTaskTrackingInfo", token: admin) == 0)
    }
}
