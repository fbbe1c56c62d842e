import FleetCLI
@testable import FleetConsumer
import FleetErrors
import FleetModel
import Foundation
import Testing

/// The live view as a pure function of the trip model.
@Suite struct TripPanelTests {
    static let start = Timestamp(seconds: 1_767_225_600) // 2026-01-01T00:00:00Z
    static let utc = TimeZone(identifier: "UTC")!

    /// A trip enroute to its pickup, half way along the leg.
    static func halfWay() -> TripModel {
        var trip = Trip(name: "providers/p/trips/t", vehicleId: "v1", tripStatus: .enrouteToPickup)
        trip.lastLocation = VehicleLocation(location: LatLng(latitude: 52.5, longitude: 13.38))
        trip.remainingWaypoints = [
            TripWaypoint(location: TerminalLocation(point: LatLng(latitude: 52.5, longitude: 13.4)), tripId: "t",
                         waypointType: .pickupWaypointType, eta: start.adding(seconds: 121)),
            TripWaypoint(location: TerminalLocation(point: LatLng(latitude: 52.5, longitude: 13.43)), tripId: "t",
                         waypointType: .dropOffWaypointType, eta: start.adding(seconds: 358)),
        ]
        trip.remainingDistanceMeters = 1354
        var model = TripModel(tripName: "providers/p/trips/t").merging(trip, sent: TripVersions(), observedAt: start)
        trip.lastLocation = VehicleLocation(location: LatLng(latitude: 52.5, longitude: 13.39))
        trip.remainingDistanceMeters = 677
        model = model.merging(trip, sent: model.versions, observedAt: start.adding(seconds: 60))
        return model
    }

    @Test func showsStatusVehicleProgressAndBothETAs() {
        let lines = TripPanel(timeZone: Self.utc).render(Self.halfWay(), width: 60)
        #expect(lines == [
            "Trip      providers/p/trips/t",
            "Status    ENROUTE_TO_PICKUP  vehicle v1",
            "Vehicle   52.50000, 13.39000",
            "Progress  [===============>              ] 677 m to pickup",
            "Pickup    ETA 00:02:01  in 1m 01s",
            "Dropoff   ETA 00:05:58  in 4m 58s",
            "Updated   00:01:00",
            "",
        ])
    }

    @Test func countdownsFollowTheGivenTime() {
        let lines = TripPanel(timeZone: Self.utc).render(Self.halfWay(), width: 60, now: Self.start.adding(seconds: 100))
        #expect(lines[4] == "Pickup    ETA 00:02:01  in 21s")
        #expect(lines[5] == "Dropoff   ETA 00:05:58  in 4m 18s")
    }

    @Test func aSpedUpTripCountsDownInItsOwnTime() {
        var panel = TripPanel(timeZone: Self.utc)
        panel.timeScale = 10
        // Observed at 00:01:00; 3 s of real time later, 30 s of the trip's time have passed.
        let lines = panel.render(Self.halfWay(), width: 60, now: Self.start.adding(seconds: 63))
        #expect(lines[4] == "Pickup    ETA 00:02:01  in 31s")
        #expect(lines[5] == "Dropoff   ETA 00:05:58  in 4m 28s")
    }

    @Test(arguments: [20, 33, 47, 80, 200])
    func linesNeverExceedTheWidth(width: Int) {
        var model = Self.halfWay()
        model.lastFailure = FollowFailure(error: FleetError(.tripNotFound, detail: "providers/p/trips/t"), retryInSeconds: 5, attempt: 4)
        let lines = TripPanel(timeZone: Self.utc).render(model, width: width)
        #expect(lines.count == TripPanel.lineCount)
        #expect(lines.allSatisfy { $0.count <= width }, "\(lines)")
        #expect(lines[0].hasPrefix("Trip"))
    }

    @Test func aFailureShowsWhatHappensNextAndTheCause() {
        var model = Self.halfWay()
        model.lastFailure = FollowFailure(error: FleetError(.serverUnavailable, detail: "down"), retryInSeconds: 2, attempt: 2)
        let lines = TripPanel(timeZone: Self.utc).render(model, width: 200)
        #expect(lines[6] == "Updated   00:01:00  UNAVAILABLE: recovering, retrying in 2s (attempt 2)")
        #expect(lines[7] == "          " + ErrorCause.serverUnavailable.summary)

        model.lastFailure = FollowFailure(error: FleetError(.tripNotFound, detail: "x"), retryInSeconds: 5, attempt: 1)
        let client = TripPanel(timeZone: Self.utc).render(model, width: 400)
        #expect(client[7] == "          \(ErrorCause.tripNotFound.summary). \(ErrorCause.tripNotFound.remedy)")
    }

    @Test func beforeTheFirstUpdateAndAfterTheEnd() {
        let waiting = TripPanel(timeZone: Self.utc).render(TripModel(tripName: "providers/p/trips/t"), width: 60)
        #expect(waiting[1] == "Status    waiting for the first update...")
        #expect(waiting[2] == "Vehicle   not assigned yet")
        #expect(waiting[3] == "Progress  no route yet")
        #expect(waiting[4] == "Pickup    no ETA yet")
        #expect(waiting[6] == "Updated   never")

        var trip = Trip(name: "providers/p/trips/t", vehicleId: "v1", tripStatus: .complete)
        trip.pickupTime = Self.start.adding(seconds: 120)
        trip.dropoffTime = Self.start.adding(seconds: 300)
        let done = TripModel(tripName: "providers/p/trips/t").merging(trip, sent: TripVersions(), observedAt: Self.start.adding(seconds: 300))
        let lines = TripPanel(timeZone: Self.utc).render(done, width: 60)
        #expect(lines[1] == "Status    COMPLETE  vehicle v1")
        #expect(lines[3] == "Progress  trip over")
        #expect(lines[4] == "Pickup    picked up 00:02:00")
        #expect(lines[5] == "Dropoff   dropped off 00:05:00")
    }

    @Test func theBarFillsWithTheFraction() {
        #expect(TripPanel.bar(fraction: 0, width: 12) == "[>         ]")
        #expect(TripPanel.bar(fraction: 0.5, width: 12) == "[=====>    ]")
        #expect(TripPanel.bar(fraction: 1, width: 12) == "[==========]")
        #expect(TripPanel.bar(fraction: 7, width: 12) == "[==========]")
    }

    @Test func colourOnlyWhenTheStyleAsks() {
        let plain = TripPanel(style: .plain, timeZone: Self.utc).render(Self.halfWay(), width: 60)
        let coloured = TripPanel(style: Style(enabled: true), timeZone: Self.utc).render(Self.halfWay(), width: 60)
        #expect(plain.allSatisfy { !$0.contains("\u{1B}") })
        #expect(coloured[1].contains("\u{1B}[1mENROUTE_TO_PICKUP\u{1B}[0m"))
        #expect(coloured.map(Self.withoutEscapes) == plain)
    }

    /// The text without ANSI SGR escapes (`ESC [ digits ; m`).
    static func withoutEscapes(_ text: String) -> String {
        var result = ""
        var inEscape = false
        for character in text {
            if inEscape {
                if character == "m" { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    @Test func localTimesUseTheTimeZone() {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        #expect(ReadableText.clockTime(Self.start, timeZone: berlin) == "01:00:00")
        #expect(ReadableText.clockTime(Self.start.adding(seconds: 3725), timeZone: Self.utc) == "01:02:05")
    }

    @Test func readableDistancesAndDurations() {
        #expect(ReadableText.distance(meters: 0) == "0 m")
        #expect(ReadableText.distance(meters: 999) == "999 m")
        #expect(ReadableText.distance(meters: 1049) == "1.0 km")
        #expect(ReadableText.distance(meters: 12_345) == "12.3 km")
        #expect(ReadableText.duration(seconds: 59) == "59s")
        #expect(ReadableText.duration(seconds: 61) == "1m 01s")
        #expect(ReadableText.duration(seconds: 3725) == "1h 02m")
        #expect(ReadableText.coordinate(LatLng(latitude: -0.000004, longitude: -122.0841)) == "0.00000, -122.08410")
    }
}
