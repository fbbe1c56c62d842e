import FleetDriver
import FleetErrors
import FleetGeo
import FleetModel
import Testing
import FleetRandom
import FleetBackoff

@Suite("Interval rules, backoff and update masks")
struct PolicyTests {
    @Test("The interval defaults to 10 s and is clamped to 5-60 s with a warning that says so", arguments: [
        (nil as Double?, 10.0, nil as String?),
        (30, 30, nil),
        (5, 5, nil),
        (60, 60, nil),
        (2, 5, "--interval 2s is below the minimum of 5s: using 5s"),
        (0.5, 5, "--interval 0.5s is below the minimum of 5s: using 5s"),
        (90, 60, "--interval 90s is above the maximum of 60s: using 60s"),
    ])
    func interval(requested: Double?, seconds: Double, warning: String?) {
        let interval = ReportingInterval(requestedSeconds: requested)
        #expect(interval.seconds == seconds)
        #expect(interval.wasClamped == (warning != nil))
        if let warning {
            #expect(interval.warning?.hasPrefix(warning) == true, "\(interval.warning ?? "no warning")")
        } else {
            #expect(interval.warning == nil)
        }
    }

    @Test("Backoff ceilings double from the first wait up to the maximum; waits stay within them")
    func backoff() {
        let backoff = Backoff(initialSeconds: 10, maximumSeconds: 60)
        #expect((1...5).map(backoff.ceiling(afterFailures:)) == [10, 20, 40, 60, 60])
        var random = SeededRandom(seed: 3)
        for failures in 1...8 {
            let delay = backoff.delay(afterFailures: failures, using: &random)
            #expect(delay >= 10 && delay <= backoff.ceiling(afterFailures: failures))
        }
        var a = SeededRandom(seed: 9)
        var b = SeededRandom(seed: 9)
        #expect(backoff.delay(afterFailures: 4, using: &a) == backoff.delay(afterFailures: 4, using: &b), "a seed fixes the jitter")
    }

    static let vehicle = try! VehicleName(provider: "demo", vehicleID: "cab-1")
    static let location = VehicleLocation(location: LatLng(latitude: 52, longitude: 5), updateTime: Timestamp(seconds: 1))

    @Test("The first update names vehicleState and lastLocation; an unchanged report makes no request")
    func firstAndUnchanged() throws {
        let desired = VehicleReport(state: .online, location: Self.location)
        let first = try #require(UpdatePlanner.request(for: Self.vehicle, desired: desired, acknowledged: VehicleReport()))
        #expect(first.updateMask?.paths == ["vehicleState", "lastLocation"])
        #expect(first.name == "providers/demo/vehicles/cab-1")
        #expect(first.vehicle?.vehicleState == .online)
        let acknowledged = desired.acknowledged(over: VehicleReport())
        #expect(UpdatePlanner.request(for: Self.vehicle, desired: VehicleReport(state: .online), acknowledged: acknowledged) == nil)
        #expect(UpdatePlanner.request(for: Self.vehicle, desired: desired, acknowledged: acknowledged) == nil)
    }

    @Test("Only the changed navigation fields are named; the end point goes with the segment")
    func navigationMasks() throws {
        let endPoint = TripWaypoint(location: TerminalLocation(point: LatLng(latitude: 52.1, longitude: 5.1)), tripId: "t", waypointType: .pickupWaypointType)
        let navigation = NavigationFields(routeSegment: "abc", endPoint: Destination(waypoint: endPoint), remainingDistanceMeters: 100, remainingTimeSeconds: 20)
        let acknowledged = VehicleReport(state: .online, location: Self.location, navigation: navigation)
        var moved = navigation
        moved.remainingDistanceMeters = 90
        let request = try #require(UpdatePlanner.request(for: Self.vehicle, desired: VehicleReport(state: .online, navigation: moved), acknowledged: acknowledged))
        #expect(request.updateMask?.paths == ["remainingDistanceMeters"])
        moved.routeSegment = "abd"
        let segment = try #require(UpdatePlanner.request(for: Self.vehicle, desired: VehicleReport(navigation: moved), acknowledged: acknowledged))
        #expect(segment.updateMask?.paths == ["currentRouteSegment", "currentRouteSegmentEndPoint", "remainingDistanceMeters"])
        #expect(segment.vehicle?.currentRouteSegmentEndPoint == endPoint)
        let cleared = try #require(UpdatePlanner.request(for: Self.vehicle, desired: VehicleReport(state: .online), acknowledged: acknowledged))
        #expect(cleared.updateMask?.paths == ["currentRouteSegment"])
        #expect(cleared.vehicle?.currentRouteSegment == "")
    }

    static let deliveryVehicle = try! DeliveryVehicleName(provider: "demo", deliveryVehicleID: "van-1")

    @Test("A delivery vehicle's update: no state, the location as a DeliveryVehicleLocation, the segment as bytes, remainingDuration, the stop's place as end point")
    func deliveryVehicleMasks() throws {
        let stop = Destination(point: GeoPoint(latitude: 52.1, longitude: 5.1))
        let navigation = NavigationFields(routeSegment: "abc", endPoint: stop, remainingDistanceMeters: 100, remainingTimeSeconds: 20)
        let desired = VehicleReport(state: .online, location: Self.location, navigation: navigation)
        let request = try #require(UpdatePlanner.request(for: Self.deliveryVehicle, desired: desired, acknowledged: VehicleReport()))
        #expect(request.updateMask?.paths == ["lastLocation", "currentRouteSegment", "currentRouteSegmentEndPoint",
                                              "remainingDistanceMeters", "remainingDuration"])
        let body = try #require(request.deliveryVehicle)
        #expect(body.name == "providers/demo/deliveryVehicles/van-1")
        #expect(body.lastLocation?.location == Self.location.location)
        #expect(body.lastLocation?.updateTime == Self.location.updateTime)
        #expect(body.currentRouteSegment == ProtoBytes(Array("abc".utf8)))
        #expect(body.currentRouteSegmentEndPoint == LatLng(latitude: 52.1, longitude: 5.1))
        #expect(body.remainingDuration == ProtoDuration(seconds: 20))
        #expect(body.remainingVehicleJourneySegments.isEmpty, "the stops never go with the location")
        // Nothing new: no request, even with a state (a delivery vehicle has none).
        #expect(UpdatePlanner.request(for: Self.deliveryVehicle, desired: desired, acknowledged: desired.acknowledged(over: VehicleReport())) == nil)
        #expect(UpdatePlanner.request(for: Self.deliveryVehicle, desired: VehicleReport(state: .offline), acknowledged: VehicleReport()) == nil)
    }

    @Test("The final update names vehicleState even when the server already has it")
    func forcedState() throws {
        let acknowledged = VehicleReport(state: .offline)
        #expect(UpdatePlanner.request(for: Self.vehicle, desired: VehicleReport(state: .offline), acknowledged: acknowledged) == nil)
        let forced = try #require(UpdatePlanner.request(for: Self.vehicle, desired: VehicleReport(state: .offline), acknowledged: acknowledged, forceState: true))
        #expect(forced.updateMask?.paths == ["vehicleState"])
    }

    @Test("The empty-mask error is recognised by cause and by Fleet Engine's message")
    func emptyMaskRecognised() {
        #expect(ErrorText.isEmptyUpdateMask(FleetError(.emptyUpdateMask)))
        #expect(ErrorText.isEmptyUpdateMask(FleetError(code: .invalidArgument, message: "update_mask cannot be empty")))
        #expect(!ErrorText.isEmptyUpdateMask(FleetError(.serverUnavailable)))
        #expect(ErrorText.explained(FleetError(.serverUnavailable)).contains("retry with backoff"))
    }
}
