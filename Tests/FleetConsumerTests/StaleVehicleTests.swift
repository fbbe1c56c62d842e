import FleetConsumer
import FleetEngine
import FleetModel
import Synchronization
import Testing

/// A driver whose phone dies leaves the trip unchanged on the server: only the clock can tell the
/// rider. The panel shows the position's age and flags it; the JSON events say when it turns stale
/// and when it is fresh again.
@Suite struct StaleVehicleTests {
    static let start = Timestamp(seconds: 1_767_225_600)

    static func model(locationAt time: Timestamp?, status: TripStatus = .enrouteToPickup) -> TripModel {
        var trip = Trip(name: "providers/p/trips/t1", vehicleId: "v1", tripStatus: status)
        trip.lastLocation = VehicleLocation(location: LatLng(latitude: 60.17, longitude: 24.94), serverTime: time)
        return TripModel(tripName: "providers/p/trips/t1").merging(trip, sent: TripVersions(), observedAt: start)
    }

    @Test func theModelKnowsHowOldThePositionIs() {
        let model = Self.model(locationAt: Self.start)
        #expect(model.vehicleLocationTime == Self.start)
        #expect(model.vehicleLocationAge(at: Self.start.adding(seconds: 12)) == 12)
        #expect(!model.isVehicleStale(at: Self.start.adding(seconds: 30), staleAfterSeconds: 30))
        #expect(model.isVehicleStale(at: Self.start.adding(seconds: 31), staleAfterSeconds: 30))
        #expect(!Self.model(locationAt: Self.start, status: .complete).isVehicleStale(at: Self.start.adding(seconds: 999), staleAfterSeconds: 30),
                "an ended trip's car is not expected to report")
        #expect(Self.model(locationAt: nil).vehicleLocationAge(at: Self.start) == nil)
    }

    @Test func thePanelShowsTheAgeAndFlagsAStalePosition() {
        var panel = TripPanel()
        panel.staleAfterSeconds = 30
        let model = Self.model(locationAt: Self.start)
        let fresh = panel.render(model, width: 100, now: Self.start.adding(seconds: 5)).joined(separator: "\n")
        #expect(fresh.contains("5s ago"), "\(fresh)")
        #expect(!fresh.contains("STALE"))
        let stale = panel.render(model, width: 100, now: Self.start.adding(seconds: 125)).joined(separator: "\n")
        #expect(stale.contains("STALE: no position for 2m 05s"), "\(stale)")
    }

    @Test func theWatchTellsWhenThePositionTurnsStaleAndFreshAgain() throws {
        let now = Mutex(Self.start)
        let presented = Mutex<[TripUpdate]>([])
        let watch = StaleVehicleWatch<TripModel>(staleAfterSeconds: 30, now: { now.withLock { $0 } },
                                      forward: { update in presented.withLock { $0.append(update) } })
        watch.present(TripUpdate(model: Self.model(locationAt: Self.start), events: []))
        now.withLock { $0 = Self.start.adding(seconds: 20) }
        watch.tick()
        #expect(presented.withLock { $0.count } == 1, "fresh: only the update itself")
        now.withLock { $0 = Self.start.adding(seconds: 31) }
        watch.tick()
        watch.tick()
        let stale = try #require(presented.withLock { $0.last?.events.first })
        #expect(presented.withLock { $0.count } == 2, "told once")
        #expect(stale.kind == .vehicleStale)
        #expect(stale.jsonLine.contains(#""stale":true"#) && stale.jsonLine.contains(#""ageSeconds":31"#), "\(stale.jsonLine)")
        // The driver reports again.
        watch.present(TripUpdate(model: Self.model(locationAt: Self.start.adding(seconds: 31)), events: []))
        let fresh = try #require(presented.withLock { $0.last?.events.first })
        #expect(fresh.kind == .vehicleStale && fresh.jsonLine.contains(#""stale":false"#), "\(fresh.jsonLine)")
    }
}
