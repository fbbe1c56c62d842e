import FleetConsumer
import Testing

@Suite struct TripEventKindTests {
    @Test func theOrderIsTheSubscriberCallbacksOrder() {
        #expect(TripEventKind.allCases.map(\.rawValue) == [
            "trip", "tripStatus", "activeRouteRemainingDistance", "activeRoute", "vehicleLocation",
            "pickupLocation", "dropoffLocation", "pickupETA", "dropoffETA", "remainingWaypoints",
            "intermediateDestinations", "activeRouteTraffic", "vehicleStale", "error",
        ])
        #expect(TripEventKind.tripStatus < TripEventKind.pickupETA)
        #expect(TripEventKind.tripParts.count == 11)
    }

    @Test func listsParseWithSpacesAndEmptyItems() throws {
        #expect(try TripEventKind.parseList("tripStatus, pickupETA,,dropoffETA ").get() == [.tripStatus, .pickupETA, .dropoffETA])
        #expect(try TripEventKind.parseList("").get().isEmpty)
    }

    @Test func anUnknownNameIsReported() {
        guard case .failure(let unknown) = TripEventKind.parseList("tripStatus,pickupEta") else {
            Issue.record("pickupEta was accepted")
            return
        }
        #expect(unknown.name == "pickupEta")
    }
}
