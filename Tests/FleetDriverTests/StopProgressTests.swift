import FleetDriver
import FleetGeo
import FleetModel
import Testing

@Suite("StopProgress: a delivery vehicle's next stop goes ENROUTE, ARRIVED and served")
struct StopProgressTests {
    /// Three stops 1 km apart going east from the Dam, one task each.
    static let places = [Places.east(1000), Places.east(2000), Places.east(3000)]

    static func stop(_ point: GeoPoint, tasks: [String], state: VehicleStop.State = .new,
                     durations: [Double] = []) -> VehicleJourneySegment {
        let infos = tasks.enumerated().map { index, id in
            VehicleStop.TaskInfo(taskId: id, taskDuration: index < durations.count ? ProtoDuration(timeInterval: durations[index]) : nil)
        }
        return VehicleJourneySegment(
            stop: VehicleStop(plannedLocation: LocationInfo(point: LatLng(latitude: point.latitude, longitude: point.longitude)),
                              tasks: infos, state: state),
            drivingDistanceMeters: 1000, path: [LatLng(latitude: point.latitude, longitude: point.longitude)])
    }

    static func stops(_ states: [VehicleStop.State] = [.new, .new, .new]) -> [VehicleJourneySegment] {
        zip(places, states).enumerated().map { index, pair in stop(pair.0, tasks: ["task-\(index + 1)"], state: pair.1) }
    }

    /// The transition `progress` decides at `here`, `now`.
    static func decide(_ progress: inout StopProgress, _ here: GeoPoint, _ now: Double) -> StopTransition? {
        progress.nextChange(at: here, now: now)?.transition
    }

    static func progress(_ stops: [VehicleJourneySegment], policy: StopPolicy = StopPolicy(dwell: .fixed(seconds: 30)),
                         now: Double = 0) -> StopProgress {
        var progress = StopProgress(policy: policy)
        progress.install(stops, now: now)
        return progress
    }

    @Test("The next stop goes ENROUTE once the vehicle has moved off from where it stood, not while it stands")
    func enrouteWhenSettingOff() {
        var progress = Self.progress(Self.stops())
        let decided1 = Self.decide(&progress, Places.dam, 0)
        #expect(decided1 == nil, "standing at the depot")
        #expect(Self.decide(&progress, Places.east(10), 5) == nil, "a receiver's drift is not setting off")
        let change = progress.nextChange(at: Places.east(30), now: 10)
        #expect(change?.transition == .enroute)
        #expect(change?.taskIDs == ["task-1"], "the first stop, never another")
    }

    @Test("ARRIVED within the arrival radius, from ENROUTE or straight from NEW; not a metre outside", arguments: [
        (radius: 50.0, meters: 49.0, arrives: true),
        (radius: 50.0, meters: 51.0, arrives: false),
        (radius: 100.0, meters: 90.0, arrives: true),
        (radius: 10.0, meters: 12.0, arrives: false),
    ])
    func arrivalRadius(radius: Double, meters: Double, arrives: Bool) {
        let here = Places.east(1000 - meters)
        for state in [VehicleStop.State.enroute, .new] {
            var progress = Self.progress(Self.stops([state, .new, .new]), policy: StopPolicy(arrivalRadiusMeters: radius))
            let change = progress.nextChange(at: here, now: 100)
            if arrives {
                #expect(change?.transition == .arrived, "\(state.name) at \(meters) m of a \(radius) m radius")
            } else {
                #expect(change?.transition != .arrived, "\(state.name) at \(meters) m of a \(radius) m radius")
            }
        }
    }

    @Test("An ARRIVED stop is served after the dwell, counted from when it was seen ARRIVED")
    func servedAfterDwell() {
        var progress = Self.progress(Self.stops([.arrived, .new, .new]), now: 1000)
        #expect(progress.dwellEnd == 1030)
        #expect(Self.decide(&progress, Places.east(1000), 1029) == nil)
        #expect(Self.decide(&progress, Places.east(1000), 1030) == .completed)
        // The same list installed again (a periodic read) does not restart the dwell.
        progress.install(Self.stops([.arrived, .new, .new]), now: 1020)
        #expect(progress.dwellEnd == 1030)
    }

    @Test("--dwell tasks waits as long as the stop's tasks take, one minute when they say nothing")
    func dwellFromTasks() {
        let withDurations = [Self.stop(Self.places[0], tasks: ["a", "b"], state: .arrived, durations: [60, 90])]
        #expect(Self.progress(withDurations, policy: StopPolicy(dwell: .standard), now: 0).dwellEnd == 150)
        let without = [Self.stop(Self.places[0], tasks: ["a"], state: .arrived)]
        #expect(Self.progress(without, policy: StopPolicy(dwell: .standard), now: 0).dwellEnd == 60)
    }

    @Test("--dwell manual: only the driver's 'completed' serves the stop, and only an ARRIVED one")
    func manualCompletion() {
        var enroute = Self.progress(Self.stops([.enroute, .new, .new]), policy: StopPolicy(dwell: .manual))
        let accepted = enroute.requestCompletion()
        #expect(!accepted, "a stop not yet reached cannot be served")
        var progress = Self.progress(Self.stops([.arrived, .new, .new]), policy: StopPolicy(dwell: .manual))
        #expect(progress.dwellEnd == nil)
        #expect(Self.decide(&progress, Places.east(1000), 1e9) == nil, "no dwell ends by itself")
        let completion = progress.requestCompletion()
        #expect(completion)
        #expect(Self.decide(&progress, Places.east(1000), 1) == .completed)
    }

    @Test("The change is written on the fresh list: the first stop's state changed, the others as they are, nothing Fleet Engine computes")
    func appliedToFreshList() throws {
        var progress = Self.progress(Self.stops())
        _ = progress.nextChange(at: Places.dam, now: 0)
        let decided = progress.nextChange(at: Places.east(100), now: 10)
        let change = try #require(decided)
        let written = try #require(StopProgress.applying(change, to: Self.stops()))
        #expect(written.map { $0.stop?.state } == [.enroute, .new, .new])
        #expect(written.map { $0.stop?.tasks.map(\.taskId) } == [["task-1"], ["task-2"], ["task-3"]])
        #expect(written.allSatisfy { $0.drivingDistanceMeters == nil && $0.path.isEmpty }, "output-only fields are not sent back")

        let enrouteStop = try #require(Self.stops([.enroute])[0].stop)
        let arrived = try #require(StopProgress.applying(StopChange(.arrived, of: enrouteStop), to: Self.stops([.enroute, .new, .new])))
        #expect(arrived.map { $0.stop?.state } == [.arrived, .new, .new])
        let arrivedStop = try #require(Self.stops([.arrived])[0].stop)
        let served = try #require(StopProgress.applying(StopChange(.completed, of: arrivedStop), to: Self.stops([.arrived, .new, .new])))
        #expect(served.map { $0.stop?.tasks.first?.taskId } == ["task-2", "task-3"], "the served stop is removed, the rest kept in order")
    }

    @Test("A list the provider changed meanwhile is never overwritten: a change for a stop no longer first, or already made, is dropped")
    func serverChangedTheList() throws {
        let first = try #require(Self.stops()[0].stop)
        // The provider put a new stop in front.
        let urgent = Self.stop(Places.east(500), tasks: ["urgent"])
        #expect(StopProgress.applying(StopChange(.enroute, of: first), to: [urgent] + Self.stops()) == nil)
        // The provider removed the stop (cancelled its task).
        #expect(StopProgress.applying(StopChange(.arrived, of: first), to: Array(Self.stops().dropFirst())) == nil)
        // The stop's tasks changed: another stop at the same place.
        let moreTasks = [Self.stop(Self.places[0], tasks: ["task-1", "task-9"])] + Self.stops().dropFirst()
        #expect(StopProgress.applying(StopChange(.enroute, of: first), to: moreTasks) == nil)
        // Someone else already marked it.
        #expect(StopProgress.applying(StopChange(.arrived, of: first), to: Self.stops([.arrived, .new, .new])) == nil)
        #expect(StopProgress.applying(StopChange(.enroute, of: first), to: Self.stops([.arrived, .new, .new])) == nil)
        #expect(StopProgress.applying(StopChange(.completed, of: first), to: Self.stops([.enroute, .new, .new])) == nil,
                "a stop put back to ENROUTE is not removed")
        // A stop added at the end is kept.
        let longer = Self.stops([.enroute, .new, .new]) + [Self.stop(Places.east(4000), tasks: ["late"])]
        let written = try #require(StopProgress.applying(StopChange(.arrived, of: first), to: longer))
        #expect(written.map { $0.stop?.tasks.first?.taskId } == ["task-1", "task-2", "task-3", "late"])
    }

    @Test("After a stop is served the next one needs its own setting off; a stop at the same place is ARRIVED at once")
    func nextStopAfterService() throws {
        var progress = Self.progress(Self.stops([.arrived, .new, .new]))
        progress.install(Array(Self.stops().dropFirst()), now: 40)
        #expect(progress.nextStop?.tasks.first?.taskId == "task-2")
        #expect(Self.decide(&progress, Places.east(1000), 41) == nil, "standing at the served stop")
        #expect(Self.decide(&progress, Places.east(1030), 45) == .enroute)

        let samePlace = [Self.stop(Self.places[0], tasks: ["a"], state: .arrived), Self.stop(Self.places[0], tasks: ["b"])]
        var atOnePlace = Self.progress(samePlace)
        atOnePlace.install(Array(samePlace.dropFirst()), now: 31)
        #expect(Self.decide(&atOnePlace, Places.east(1000), 32) == .arrived)
    }

    @Test("No stops, nothing to do")
    func noStops() {
        var progress = Self.progress([])
        let decided2 = Self.decide(&progress, Places.dam, 0)
        #expect(decided2 == nil)
        let accepted = progress.requestCompletion()
        #expect(!accepted)
        #expect(progress.dwellEnd == nil)
    }
}
