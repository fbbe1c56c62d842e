import FleetConsumer
import FleetEngine
import FleetKit
import FleetModel
import Foundation
import Testing

/// The scripted trip followed end to end over each in-process transport — memory over each store,
/// and the file (journal) transport — with both sources (polling and push watching): the exact
/// events, in order, and what they say.
@Suite struct ScriptedTripTests {
    /// How the follower reaches the engine.
    enum Store: String, CaseIterable, Sendable {
        /// `--transport memory --store memory`.
        case memory
        /// `--transport memory --store file:PATH`.
        case file
        /// `--transport memory --store sqlite:PATH`.
        case sqlite
        /// `--transport file:PATH` (the journal transport).
        case journal
    }

    enum Source: String, CaseIterable, Sendable {
        case poll, watch
    }

    /// The kinds of each update: the first snapshot, then one update per step of `ScriptedTrip.steps`.
    static let expectedBatches: [[TripEventKind]] = {
        let move: [TripEventKind] = [.trip, .activeRouteRemainingDistance, .vehicleLocation, .pickupETA, .dropoffETA, .remainingWaypoints]
        let moveAfterPickup: [TripEventKind] = [.trip, .activeRouteRemainingDistance, .vehicleLocation, .dropoffETA, .remainingWaypoints]
        return [
            [.trip, .tripStatus, .pickupLocation, .dropoffLocation],
            // assign: the vehicle's place and the first estimates (no route yet)
            [.trip, .activeRouteRemainingDistance, .vehicleLocation, .pickupETA, .dropoffETA, .remainingWaypoints],
            [.trip, .tripStatus],
            // the route to the pickup, with its traffic: a shorter distance than the straight-line estimate
            [.trip, .activeRouteRemainingDistance, .activeRoute, .pickupETA, .dropoffETA, .remainingWaypoints, .activeRouteTraffic],
            move, move, move, move,
            [.trip, .tripStatus],
            // picked up: the pickup waypoint leaves; its ETA stays the time of arrival
            [.trip, .tripStatus, .activeRouteRemainingDistance, .remainingWaypoints],
            [.trip, .activeRouteRemainingDistance, .activeRoute, .dropoffETA, .remainingWaypoints, .activeRouteTraffic],
            moveAfterPickup, moveAfterPickup, moveAfterPickup, moveAfterPickup,
            // complete: the trip leaves the vehicle
            [.trip, .tripStatus, .activeRouteRemainingDistance, .activeRoute, .vehicleLocation, .remainingWaypoints, .activeRouteTraffic],
        ]
    }()

    @Test(arguments: Store.allCases, Source.allCases)
    func followsTheScriptedTripToTheEnd(store: Store, source: Source) throws {
        let run = try Self.follow(store: store, source: source)
        #expect(run.outcome == .tripEnded(.complete))
        #expect(run.outcome?.exitCode == .success)

        // Exactly the expected updates, in order.
        #expect(run.recorder.allUpdates.map { $0.events.map(\.kind) } == Self.expectedBatches)

        // Each status once, in lifecycle order.
        let statuses = run.recorder.events.compactMap { event -> String? in
            if case .status(let status) = event.value { return status?.name }
            return nil
        }
        #expect(statuses == ["NEW", "ENROUTE_TO_PICKUP", "ARRIVED_AT_PICKUP", "ENROUTE_TO_DROPOFF", "COMPLETE"])

        // `trip` lists exactly the parts that follow it.
        for update in run.recorder.allUpdates {
            guard case .changes(let changed, let trip)? = update.events.first?.value else {
                Issue.record("an update does not start with `trip`: \(update.events.map(\.kind))")
                continue
            }
            #expect(changed.map(\.name) == Array(update.events.dropFirst().map(\.kind.rawValue)))
            #expect(trip == update.model.trip.map(FollowedSnapshot.trip))
        }

        // ETAs count down to the arrival.
        let pickupLeft = Self.secondsLeft(of: .pickupETA, in: run.recorder.events)
        let dropoffLeft = Self.secondsLeft(of: .dropoffETA, in: run.recorder.events)
        #expect(pickupLeft.count == 6 && dropoffLeft.count == 11, "pickup \(pickupLeft), dropoff \(dropoffLeft)")
        #expect(Self.isStrictlyDecreasing(pickupLeft), "\(pickupLeft)")
        #expect(Self.isStrictlyDecreasing(dropoffLeft), "\(dropoffLeft)")
        #expect(pickupLeft.last == 0 && dropoffLeft.last == 0)

        // The distance shrinks to 0 at the pickup, again to 0 at the dropoff, then is gone.
        let distances = run.recorder.events.compactMap { event -> Int32?? in
            if case .distance(let meters) = event.value { return .some(meters) }
            return nil
        }
        let toPickup = Array(distances[1...5]).compactMap { $0 }
        let toDropoff = Array(distances[7...12]).compactMap { $0 }
        #expect(Self.isStrictlyDecreasing(toPickup.map(Int.init)) && toPickup.last == 0, "\(distances)")
        #expect(Self.isStrictlyDecreasing(toDropoff.map(Int.init)) && toDropoff.last == 0, "\(distances)")
        #expect(distances.last == .some(nil))

        // The vehicle's reported positions, in order, each once.
        let positions = run.recorder.events.compactMap { event -> Double? in
            guard event.kind == .vehicleLocation, case .vehicle(let fix?) = event.value else { return nil }
            return fix.location.longitude
        }
        #expect(positions == [ScriptedTrip.start] + ScriptedTrip.toPickup + ScriptedTrip.toDropoff)
    }

    @Test func pollingAndWatchingTellTheSameStoryOverEveryStore() throws {
        let reference = try Self.follow(store: .memory, source: .poll).recorder.jsonLines
        #expect(reference.count == Self.expectedBatches.joined().count)
        for store in Store.allCases {
            for source in Source.allCases where !(store == .memory && source == .poll) {
                let lines = try Self.follow(store: store, source: source).recorder.jsonLines
                #expect(lines == reference, "\(store) \(source)")
            }
        }
    }

    @Test func theEventsFilterKeepsOnlyTheNamedEventsAndTheirOrder() throws {
        let run = try Self.follow(store: .memory, source: .poll, events: [.tripStatus, .pickupETA])
        #expect(run.outcome == .tripEnded(.complete))
        let kinds = run.recorder.kinds
        #expect(Set(kinds) == [.tripStatus, .pickupETA])
        #expect(kinds.filter { $0 == .tripStatus }.count == 5)
        #expect(kinds.filter { $0 == .pickupETA }.count == 6)
        // Within the update that has both, the status comes first.
        let both = run.recorder.allUpdates.first { Set($0.events.map(\.kind)) == [.tripStatus, .pickupETA] }
        #expect(both == nil || both?.events.map(\.kind) == [.tripStatus, .pickupETA])
        // The model still follows every part.
        #expect(run.recorder.allUpdates.last?.model.status == .complete)
    }

    @Test(arguments: [("ENROUTE_TO_PICKUP", "ENROUTE_TO_PICKUP", 3), ("ARRIVED_AT_PICKUP", "ARRIVED_AT_PICKUP", 9)])
    func untilStopsOnceTheStatusIsReached(until: String, seen: String, updates: Int) throws {
        let run = try Self.follow(store: .memory, source: .poll, until: TripStatus(name: until))
        #expect(run.outcome == .untilReached(TripStatus(name: seen)))
        #expect(run.outcome?.exitCode == .success)
        #expect(run.recorder.allUpdates.count == updates)
    }

    // MARK: Running the script

    struct Run {
        let recorder: EventRecorder
        let outcome: FollowOutcome?
    }

    /// Follows the scripted trip over `store` with `source` and drives it to the end.
    static func follow(store: Store, source: Source, events: Set<TripEventKind> = Set(TripEventKind.allCases),
                       until: TripStatus? = nil) throws -> Run {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("follow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var transport = "memory"
        let storeURL: String
        switch store {
        case .memory: storeURL = "memory"
        case .file: storeURL = "file:" + folder.appendingPathComponent("store").path
        case .sqlite: storeURL = "sqlite:" + folder.appendingPathComponent("fleet.db").path
        case .journal:
            storeURL = "memory"
            transport = "file:" + folder.appendingPathComponent("fleet.journal").path
        }
        let manual = ManualClock()
        let connection = try Wiring.connect(transport: transport, options: ConnectionOptions(store: storeURL, clock: manual))
        defer { try? connection.close() }
        let script = ScriptedTrip(api: connection.api, clock: manual)
        try script.create()
        let clock = TestClock(manual, advancesOnSleep: false)
        let recorder = EventRecorder()
        let configuration = FollowConfiguration(events: events, until: until)

        switch source {
        case .poll:
            clock.onSleep { _ in
                do { try script.runNextStep() } catch { Issue.record("step failed: \(error)") }
            }
            let follower = TripFollower(tripName: ScriptedTrip.tripName,
                                        source: PollingSource(api: connection.api, intervalSeconds: 5),
                                        configuration: configuration, clock: clock)
            let outcome = follower.follow { recorder.record($0) }
            return Run(recorder: recorder, outcome: outcome)
        case .watch:
            let watcher = try #require(connection.watcher)
            let follower = TripFollower(tripName: ScriptedTrip.tripName, source: WatchSource(watcher: watcher),
                                        configuration: configuration, clock: clock)
            let thread = FollowerThread(follower, recorder: recorder)
            #expect(recorder.wait { _ in recorder.allUpdates.count == 1 })
            for step in ScriptedTrip.steps {
                let before = recorder.allUpdates.count
                guard thread.stop.isStopped == false else { break }
                try script.runNextStep()
                #expect(recorder.wait { _ in recorder.allUpdates.count > before || thread.stop.isStopped },
                        "no update after step '\(step.name)'")
            }
            thread.stop.stop()
            return Run(recorder: recorder, outcome: thread.result())
        }
    }

    /// The `secondsLeft` of each ETA event of `kind`.
    static func secondsLeft(of kind: TripEventKind, in events: [TripEvent]) -> [Int] {
        events.filter { $0.kind == kind }.compactMap { $0.json["value"]?["secondsLeft"]?.intValue }
    }

    static func isStrictlyDecreasing(_ values: [Int]) -> Bool {
        zip(values, values.dropFirst()).allSatisfy { $0 > $1 }
    }
}
