import FleetConsumer
import FleetErrors
import FleetModel
import Testing

/// The JSON of each event, key for key: what docs/consumer-follow.md promises scripts.
@Suite struct EventJSONTests {
    static let time = Timestamp(seconds: 1_767_225_660) // 2026-01-01T00:01:00Z

    static func line(_ kind: TripEventKind, _ value: TripEventValue) -> String {
        TripEvent(kind: kind, tripName: "providers/p/trips/t", time: time, value: value).jsonLine
    }

    static let head = #"{"event":"%@","trip":"providers/p/trips/t","time":"2026-01-01T00:01:00Z","value":"#

    static func expected(_ kind: String, _ value: String) -> String {
        head.replacingOccurrences(of: "%@", with: kind) + value + "}"
    }

    static let changes = TripEventValue.changes([ChangedPart(kind: TripEventKind.tripStatus, value: .status(.enrouteToPickup)),
                                                 ChangedPart(kind: TripEventKind.pickupETA, value: .eta(time.adding(seconds: 61)))],
                                                snapshot: .trip(Trip(name: "providers/p/trips/t", tripStatus: .enrouteToPickup)))

    @Test func tripListsTheChangedPartsAndCarriesTheTrip() {
        #expect(Self.line(.trip, Self.changes) == Self.expected("trip",
            #"{"changed":["tripStatus","pickupETA"],"trip":{"name":"providers/p/trips/t","tripStatus":"ENROUTE_TO_PICKUP"}}"#))
        let event = TripEvent(kind: .trip, tripName: "providers/p/trips/t", time: Self.time, value: Self.changes)
        #expect(PlainEventText.line(event) ==
                "2026-01-01T00:01:00Z trip changed tripStatus: ENROUTE_TO_PICKUP | pickupETA: 2026-01-01T00:02:01Z (in 1m 01s)")
    }

    @Test func theVehiclesPositionComesWithItsHeadingSpeedAndAccuracy() {
        let point = LatLng(latitude: 52.5, longitude: 13.405)
        let fix = VehicleFix(location: point, heading: 40, speed: 8.25, accuracy: 3)
        #expect(Self.line(.vehicleLocation, .vehicle(fix)) ==
                Self.expected("vehicleLocation", #"{"latitude":52.5,"longitude":13.405,"heading":40,"speed":8.25,"accuracy":3}"#))
        #expect(Self.line(.vehicleLocation, .vehicle(VehicleFix(location: point))) ==
                Self.expected("vehicleLocation", #"{"latitude":52.5,"longitude":13.405,"heading":null,"speed":null,"accuracy":null}"#))
        #expect(Self.line(.vehicleLocation, .vehicle(nil)) == Self.expected("vehicleLocation", "null"))
        #expect(PlainEventText.text(.vehicle(fix), observedAt: Self.time) == "52.50000, 13.40500, heading 40°, 8.3 m/s, accuracy 3 m")
        #expect(PlainEventText.text(.vehicle(VehicleFix(location: point)), observedAt: Self.time) == "52.50000, 13.40500")
        // Either accuracy field Fleet Engine has: latlngAccuracy, else the older horizontalAccuracy.
        #expect(VehicleFix(VehicleLocation(location: point, horizontalAccuracy: 7))?.accuracy == 7)
        #expect(VehicleFix(VehicleLocation(location: point, horizontalAccuracy: 7, latlngAccuracy: 2))?.accuracy == 2)
        #expect(VehicleFix(DeliveryVehicleLocation(location: point, heading: 10, speed: 1))
                == VehicleFix(location: point, heading: 10, speed: 1))
        #expect(VehicleFix(VehicleLocation(heading: 10)) == nil, "no position, no fix")
    }

    @Test func scalarsAndNulls() {
        #expect(Self.line(.tripStatus, .status(.enrouteToPickup)) == Self.expected("tripStatus", #""ENROUTE_TO_PICKUP""#))
        #expect(Self.line(.activeRouteRemainingDistance, .distance(1234)) == Self.expected("activeRouteRemainingDistance", "1234"))
        #expect(Self.line(.activeRouteRemainingDistance, .distance(nil)) == Self.expected("activeRouteRemainingDistance", "null"))
        #expect(Self.line(.pickupLocation, .location(LatLng(latitude: 52.5, longitude: 13.405))) ==
                Self.expected("pickupLocation", #"{"latitude":52.5,"longitude":13.405}"#))
        #expect(Self.line(.pickupLocation, .location(nil)) == Self.expected("pickupLocation", "null"))
    }

    @Test func etasCarryTheTimeAndTheSecondsLeft() {
        let eta = Self.time.adding(seconds: 61.4)
        #expect(Self.line(.pickupETA, .eta(eta)) ==
                Self.expected("pickupETA", #"{"eta":"2026-01-01T00:02:01.400Z","secondsLeft":61}"#))
        #expect(Self.line(.dropoffETA, .eta(Self.time.adding(seconds: -5))) ==
                Self.expected("dropoffETA", #"{"eta":"2026-01-01T00:00:55Z","secondsLeft":0}"#))
        #expect(Self.line(.dropoffETA, .eta(nil)) == Self.expected("dropoffETA", "null"))
    }

    @Test func routesAreAPointCountAndAnEncodedPolyline() {
        let route = [LatLng(latitude: 38.5, longitude: -120.2), LatLng(latitude: 40.7, longitude: -120.95), LatLng(latitude: 43.252, longitude: -126.453)]
        // Google's example polyline.
        #expect(Self.line(.activeRoute, .route(route)) ==
                Self.expected("activeRoute", #"{"points":3,"encodedPolyline":"_p~iF~ps|U_ulLnnqC_mqNvxq`@"}"#))
        #expect(Self.line(.activeRoute, .route([])) == Self.expected("activeRoute", #"{"points":0,"encodedPolyline":""}"#))
    }

    @Test func waypointsDestinationsAndTraffic() {
        var waypoint = TripWaypoint(location: TerminalLocation(point: LatLng(latitude: 1, longitude: 2)), tripId: "t",
                                    waypointType: .pickupWaypointType, pathToWaypoint: [LatLng(latitude: 0, longitude: 0)],
                                    distanceMeters: 120, eta: Timestamp(seconds: 1_767_225_700))
        waypoint.encodedPathToWaypoint = "??"
        #expect(Self.line(.remainingWaypoints, .waypoints([waypoint])) == Self.expected("remainingWaypoints",
            #"[{"location":{"point":{"latitude":1,"longitude":2}},"tripId":"t","waypointType":"PICKUP_WAYPOINT_TYPE","distanceMeters":120,"eta":"2026-01-01T00:01:40Z"}]"#))
        #expect(Self.line(.intermediateDestinations, .destinations([LatLng(latitude: 3, longitude: 4)])) ==
                Self.expected("intermediateDestinations", #"[{"latitude":3,"longitude":4}]"#))
        let traffic = ConsumableTrafficPolyline(speedReadingInterval: [
            SpeedReadingInterval(startPolylinePointIndex: 0, endPolylinePointIndex: 4, speed: .trafficJam),
        ], encodedPathToWaypoint: "abc")
        #expect(Self.line(.activeRouteTraffic, .traffic(traffic)) == Self.expected("activeRouteTraffic",
            #"{"speedReadingIntervals":[{"startPolylinePointIndex":0,"endPolylinePointIndex":4,"speed":"TRAFFIC_JAM"}]}"#))
        #expect(Self.line(.activeRouteTraffic, .traffic(nil)) == Self.expected("activeRouteTraffic", "null"))
    }

    @Test func errorsCarryTheCatalogueCauseAndRemedy() {
        let recovering = FollowFailure(error: FleetError(.serverUnavailable, detail: "connection refused"), retryInSeconds: 1.5, attempt: 2)
        #expect(Self.line(.error, .failure(recovering)) == Self.expected("error",
            #"{"code":"UNAVAILABLE","number":14,"message":"\#(recovering.error.message)","field":null,"causeId":"SERVER_UNAVAILABLE","cause":"\#(ErrorCause.serverUnavailable.summary)","remedy":"\#(ErrorCause.serverUnavailable.remedy)","recovering":true,"retryInSeconds":1.5,"attempt":2}"#))

        let badName = FleetError(.badTripName, detail: "received 'x'", field: "name")
        let client = FollowFailure(error: badName, retryInSeconds: nil, attempt: 1)
        let value = TripEvent(kind: .error, tripName: "x", time: Self.time, value: .failure(client)).json["value"]
        #expect(value?["code"] == "INVALID_ARGUMENT")
        #expect(value?["number"] == 3)
        #expect(value?["field"] == "name")
        #expect(value?["causeId"] == "BAD_TRIP_NAME")
        #expect(value?["remedy"] == .string(ErrorCause.badTripName.remedy))
        #expect(value?["recovering"] == false)
        #expect(value?["retryInSeconds"] == .null)
    }

    @Test func anErrorWithoutACauseOfItsOwnGetsItsCodesMostCommonCause() {
        let failure = FollowFailure(error: FleetError(code: .resourceExhausted, message: "slow down"), retryInSeconds: 5, attempt: 1)
        let first = ErrorCatalogue.entry(for: .resourceExhausted).causes[0]
        #expect(failure.causeID == first.id)
        #expect(failure.remedy == first.remedy)
        #expect(!failure.isRecovering)
    }

    @Test func plainLinesSayTheSameInWords() {
        let event = TripEvent(kind: .pickupETA, tripName: "providers/p/trips/t", time: Self.time, value: .eta(Self.time.adding(seconds: 125)))
        #expect(PlainEventText.line(event) == "2026-01-01T00:01:00Z pickupETA 2026-01-01T00:03:05Z (in 2m 05s)")
        let failure = FollowFailure(error: FleetError(.tripNotFound, detail: "providers/p/trips/t"), retryInSeconds: 5, attempt: 3)
        let line = PlainEventText.line(TripEvent(kind: .error, tripName: "t", time: Self.time, value: .failure(failure)))
        #expect(line == "2026-01-01T00:01:00Z error NOT_FOUND (5): \(failure.error.message); cause: TRIP_NOT_FOUND: \(ErrorCause.tripNotFound.summary); remedy: \(ErrorCause.tripNotFound.remedy); waiting for it to be created, checking again in 5s (attempt 3)")
        #expect(!line.contains("\n"))
    }
}
