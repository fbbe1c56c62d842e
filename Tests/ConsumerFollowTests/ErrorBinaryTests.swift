import FleetModel
import Foundation
import Testing

/// `consumer-follow`'s errors as a program: client errors as events and, with --fail-fast, exit codes
/// with the catalogue's explanation; usage errors.
@Suite(.serialized) struct ErrorBinaryTests {
    @Test func aMalformedTripNameFailsFastWithInvalidArgument() throws {
        let trip = try SharedStoreTrip()
        let result = try FollowProcess.run(["providers/shared/trip/ride-1", "--json", "--fail-fast", "--store", trip.storeArgument])
        #expect(result.status == 13, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 1)
        let event = try JSON.parse(lines.first ?? "")
        #expect(event["event"] == "error")
        #expect(event["trip"] == "providers/shared/trip/ride-1")
        #expect(event["value"]?["code"] == "INVALID_ARGUMENT")
        #expect(event["value"]?["causeId"] == "BAD_TRIP_NAME")
        #expect(event["value"]?["recovering"] == false)
        #expect(event["value"]?["retryInSeconds"] == .null)
        // The catalogue's explanation on standard error.
        #expect(result.error.contains("consumer-follow: INVALID_ARGUMENT"))
        #expect(result.error.contains("Cause: BAD_TRIP_NAME"))
        #expect(result.error.contains("Remedy: Use the full resource name"))
    }

    @Test func anUnknownTripFailsFastWithNotFound() throws {
        let trip = try SharedStoreTrip()
        let result = try FollowProcess.run(["--provider", "shared", "never-created", "--fail-fast", "--store", trip.storeArgument])
        #expect(result.status == 15, "\(result.error)")
        // The error once: the catalogue's explanation on standard error, no event line, no closing line.
        #expect(result.output.isEmpty, "\(result.output)")
        #expect(result.error.components(separatedBy: "consumer-follow: NOT_FOUND").count == 2, "\(result.error)")
        #expect(result.error.components(separatedBy: "Cause: TRIP_NOT_FOUND").count == 2, "\(result.error)")
        #expect(result.error.contains("Cause: TRIP_NOT_FOUND"))
        #expect(result.error.contains("Remedy: Create the trip (CreateTrip) before following it"))
        #expect(!result.error.contains("Gave up following"))
    }

    @Test func anUnknownTripIsWaitedForWithOneLineSayingSo() throws {
        let trip = try SharedStoreTrip()
        let process = try FollowProcess(["--provider", "shared", "not-yet", "--interval", "1s", "--store", trip.storeArgument])
        // Three attempts at 1s: still one line, on standard error, and no error line per attempt.
        Thread.sleep(forTimeInterval: 3.5)
        process.signal(SIGINT)
        #expect(process.waitForExit() == 130)
        let waiting = process.error.split(separator: "\n").filter { $0.hasPrefix("Waiting for trip providers/shared/trips/not-yet:") }
        #expect(waiting.count == 1, "\(process.error)")
        #expect(waiting.first?.contains("does not exist (NOT_FOUND); following starts once it is created, checked every 1s") == true)
        #expect(!process.output.contains("error NOT_FOUND"), "\(process.output)")
        #expect(!process.output.contains("needs action"), "\(process.output)")
    }

    @Test func withoutFailFastAClientErrorIsRetriedAtTheIntervalUntilCtrlC() throws {
        let trip = try SharedStoreTrip()
        let process = try FollowProcess(["--provider", "shared", "later", "--json", "--interval", "1s", "--store", trip.storeArgument])
        #expect(process.waitForLines { $0.count >= 2 }, "\(process.error)")
        process.signal(SIGINT)
        #expect(process.waitForExit() == 130)
        let events = process.lines.compactMap { try? JSON.parse($0) }
        #expect(events.count >= 2)
        for (index, event) in events.enumerated() {
            #expect(event["event"] == "error")
            #expect(event["value"]?["code"] == "NOT_FOUND")
            #expect(event["value"]?["recovering"] == false)
            #expect(event["value"]?["retryInSeconds"] == 1)
            #expect(event["value"]?["attempt"] == .number(Double(index + 1)))
        }
        #expect(process.error.isEmpty, "--json prints no closing line: \(process.error)")
    }

    @Test func aTripCreatedWhileRetryingIsPickedUp() throws {
        let trip = try SharedStoreTrip()
        let process = try FollowProcess(["--provider", "shared", "later", "--json", "--interval", "1s", "--until", "NEW",
                                         "--store", trip.storeArgument])
        #expect(process.waitForLines { $0.count >= 1 })
        _ = try trip.api.createTrip(CreateTripRequest(
            parent: "providers/shared", tripId: "later",
            trip: Trip(tripType: .exclusive, pickupPoint: TerminalLocation(point: SharedStoreTrip.point(13.4)))))
        #expect(process.waitForExit() == 0, "\(process.error)")
        let names = process.lines.compactMap { try? JSON.parse($0) }.compactMap { $0["event"]?.stringValue }
        #expect(names.first == "error")
        #expect(names.drop { $0 == "error" } == ["trip", "tripStatus", "pickupLocation"])
    }

    @Test func sigtermStopsWith143() throws {
        let trip = try SharedStoreTrip()
        let process = try FollowProcess([trip.tripName, "--store", trip.storeArgument])
        #expect(process.waitForLines { $0.count >= 1 })
        process.signal(SIGTERM)
        #expect(process.waitForExit() == 143)
        #expect(process.error == "Stopped following \(trip.tripName) (last status NEW).\n")
    }

    @Test func aDeadlineThatPassesFirstExitsWith5() throws {
        let trip = try SharedStoreTrip()
        let process = try FollowProcess([trip.tripName, "--deadline", "1s", "--events", "tripStatus", "--store", trip.storeArgument])
        #expect(process.waitForExit() == 5, "\(process.error)")
        #expect(process.lines.map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) ?? "" } == ["tripStatus NEW"])
        #expect(process.error == "The deadline passed before trip \(trip.tripName) ended (last status NEW); stopped following.\n")
    }

    @Test(arguments: [
        (["providers/p/trips/t", "--interval", "500ms"], "--interval must be at least 1s"),
        (["providers/p/trips/t", "--events", "tripStatus,pickupEta"], "did you mean 'pickupETA'?"),
        (["providers/p/trips/t", "--until", "DONE"], "--until"),
        (["providers/p/trips/t", "--deadline", "0s"], "--deadline must be above 0"),
        (["providers/p/trips/t", "--deadline", "soon"], "--deadline"),
        (["ride-1"], "give --provider"),
        (["--provider", "other", "providers/p/trips/t"], "another provider"),
        ([], "missing argument <trip>"),
    ])
    func usageErrorsExitWith2(arguments: [String], message: String) throws {
        let result = try FollowProcess.run(arguments + ["--store", "memory"])
        #expect(result.status == 2, "\(result)")
        #expect(result.error.contains(message), "\(result.error)")
        #expect(result.error.contains("See 'consumer-follow --help'."))
        #expect(result.output.isEmpty)
    }

    @Test(arguments: [
        (["--transport", "htp://127.0.0.1:1"], "--transport: unknown transport 'htp://127.0.0.1:1'"),
        (["--store", "foo:bar"], "--store: unknown store 'foo:bar'"),
        (["--store", "sqlite:/nonexistent/dir/x.db"], "--store: 'sqlite:/nonexistent/dir/x.db': the folder /nonexistent/dir does not exist"),
    ])
    func malformedConnectionSettingsExitWith2(arguments: [String], message: String) throws {
        let result = try FollowProcess.run(["providers/p/trips/t", "--fail-fast"] + arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.error.contains(message), "\(result.error)")
        #expect(result.error.contains("See 'consumer-follow --help'."))
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent/dir"))
    }

    @Test func helpNamesEveryFlagAndEvent() throws {
        let result = try FollowProcess.run(["--help"])
        #expect(result.status == 0)
        for flag in ["--provider", "--transport", "--store", "--json", "--events", "--until", "--deadline", "--interval", "--poll",
                     "--fail-fast", "--token", "--token-file", "--token-url", "--token-key", "--token-expiry-key", "--no-color",
                     "FLEET_TRANSPORT", "FLEET_STORE", "FLEET_PROVIDER", "FLEET_TOKEN", "FLEET_TOKEN_URL", "{trip}"] {
            #expect(result.output.contains(flag), "\(flag)")
        }
        for event in ["tripStatus", "activeRouteRemainingDistance", "pickupETA", "intermediateDestinations", "activeRouteTraffic"] {
            #expect(result.output.contains(event), "\(event)")
        }
    }

    @Test func environmentVariablesStandInForFlags() throws {
        let trip = try SharedStoreTrip()
        let result = try FollowProcess.run([trip.tripID, "--json", "--until", "NEW"],
                                           environment: ["FLEET_PROVIDER": SharedStoreTrip.provider, "FLEET_STORE": trip.storeArgument,
                                                         "FLEET_TRANSPORT": "memory"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains(#""event":"tripStatus""#))
    }
}
