import FleetConsumer
import FleetModel
import Testing

@Suite struct TripProgressTests {
    @Test func statusesRankInLifecycleOrder() {
        let ranks = TripProgress.untilStatuses.map(TripProgress.rank(of:))
        #expect(ranks == [1, 2, 3, 4, 5, 6, 7, 7])
        #expect(TripProgress.rank(of: .unknownTripStatus) == 0)
        #expect(TripProgress.rank(of: TripStatus(name: "FUTURE_STATUS")) == 0)
    }

    @Test(arguments: [
        (TripStatus.enrouteToPickup, TripStatus.enrouteToPickup, true),
        (.enrouteToDropoff, .arrivedAtPickup, true),
        (.arrivedAtPickup, .enrouteToDropoff, false),
        (.new, .enrouteToPickup, false),
        (.canceled, .enrouteToDropoff, true),
        (.complete, .canceled, true),
        (TripStatus(name: "FUTURE_STATUS"), .new, false),
    ])
    func untilIsReachedAtTheStatusOrPastIt(status: TripStatus, target: TripStatus, reached: Bool) {
        #expect(TripProgress.hasReached(status, target) == reached)
    }
}
