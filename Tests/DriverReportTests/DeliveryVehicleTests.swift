import FleetEngine
import FleetGeo
import FleetModel
import FleetTestSupport
import Foundation
import Glibc
import Testing

extension SharedFleet {
    /// Creates delivery vehicle `id` last seen at `place`.
    func createDeliveryVehicle(_ id: String, at place: GeoPoint) throws {
        _ = try withEngine { engine in
            try engine.createDeliveryVehicle(CreateDeliveryVehicleRequest(
                parent: "providers/\(provider)", deliveryVehicleId: id,
                deliveryVehicle: DeliveryVehicle(lastLocation: DeliveryVehicleLocation(location: LatLng(latitude: place.latitude, longitude: place.longitude)))))
        }
    }

    /// Creates an OPEN delivery task at `place` taking `seconds`, and returns the stop doing it.
    func createTask(_ id: String, at place: GeoPoint, seconds: Double) throws -> VehicleJourneySegment {
        let location = LocationInfo(point: LatLng(latitude: place.latitude, longitude: place.longitude))
        _ = try withEngine { engine in
            try engine.createTask(CreateTaskRequest(parent: "providers/\(provider)", taskId: id, task: DeliveryTask(
                type: .delivery, state: .open, trackingId: "PARCEL-\(id)", plannedLocation: location,
                taskDuration: ProtoDuration(timeInterval: seconds))))
        }
        return VehicleJourneySegment(stop: VehicleStop(plannedLocation: location, tasks: [VehicleStop.TaskInfo(taskId: id)], state: .new))
    }

    /// Gives delivery vehicle `id` these stops, as the provider's backend does.
    func setStops(_ id: String, _ stops: [VehicleJourneySegment]) throws {
        _ = try withEngine { engine in
            try engine.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
                deliveryVehicle: DeliveryVehicle(name: "providers/\(provider)/deliveryVehicles/\(id)", remainingVehicleJourneySegments: stops),
                updateMask: FieldMask(["remainingVehicleJourneySegments"])))
        }
    }

    /// The delivery vehicle as the store has it now.
    func deliveryVehicle(_ id: String) throws -> DeliveryVehicle {
        try withEngine { try $0.getDeliveryVehicle(GetDeliveryVehicleRequest(name: "providers/\(provider)/deliveryVehicles/\(id)")) }
    }

    /// The task as the store has it now.
    func task(_ id: String) throws -> DeliveryTask {
        try withEngine { try $0.getTask(GetTaskRequest(name: "providers/\(provider)/tasks/\(id)")) }
    }
}

@Suite("driver-report --delivery-vehicle, the built binary, against a real server", .serialized)
struct DeliveryVehicleTests {
    /// A depot and three stops 400 m apart going east from it.
    static let depot = GeoPoint(latitude: 52.3731, longitude: 4.8926)
    static let places = (1...3).map { Geodesy.destination(from: depot, bearing: 90, meters: Double($0) * 400) }

    /// The stop events of the log, in order, as `transition task` (`enroute task-1`).
    static func stopEvents(in log: String) -> [String] {
        log.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: #"notice stop-(enroute|arrived|completed): "#, options: .regularExpression) else { return nil }
            let transition = line[range].dropFirst("notice stop-".count).dropLast(2)
            guard let tasks = line.range(of: #"tasks=[^ ]+"#, options: .regularExpression) else { return nil }
            return "\(transition) \(line[tasks].dropFirst("tasks=".count))"
        }
    }

    @Test("A simulated drive along the plan takes three stops ENROUTE, ARRIVED and served (removed) in order; their tasks close")
    func threeStopsInOrder() throws {
        let fleet = try SharedFleet(overHTTP: true)
        try fleet.createDeliveryVehicle("van-1", at: Self.depot)
        let stops = try (1...3).map { try fleet.createTask("task-\($0)", at: Self.places[$0 - 1], seconds: 30) }
        try fleet.setStops("van-1", stops)

        let daemon = try DaemonProcess(fleet.transportArguments + [
            "--delivery-vehicle", "van-1", "--source", "simulate:plan", "--speedup", "20", "--dwell", "60s",
        ], folder: fleet.folder)

        // Watch the server's list as the provider would see it, until it is empty.
        var seen: [String] = []
        let deadline = Date().addingTimeInterval(90)
        while Date() < deadline, daemon.process.isRunning {
            let vehicle = try fleet.deliveryVehicle("van-1")
            let first = vehicle.remainingVehicleJourneySegments.first?.stop
            let now = "\(vehicle.remainingVehicleJourneySegments.count) \(first?.tasks.first?.taskId ?? "-") \(first?.state?.name ?? "-")"
            if seen.last != now { seen.append(now) }
            if vehicle.remainingVehicleJourneySegments.isEmpty { break }
            // Keeps this thread: a suspended task waits for a free thread of the test run's pool,
            // which a busy run can hold for longer than the whole drive takes.
            usleep(10_000)
        }
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")

        // driver-report's own account: every change, in order, each acknowledged.
        var expected: [String] = []
        for index in 1...3 { expected += ["enroute", "arrived", "completed"].map { "\($0) task-\(index)" } }
        #expect(Self.stopEvents(in: daemon.log) == expected, "\(daemon.log)")

        // The server's: the states it held, never out of order (polling may miss a short one).
        var order = ["3 task-1 NEW"]
        for index in 1...3 {
            let remaining = 4 - index
            order.append("\(remaining) task-\(index) ENROUTE")
            order.append("\(remaining) task-\(index) ARRIVED")
            order.append(index < 3 ? "\(remaining - 1) task-\(index + 1) NEW" : "0 - -")
        }
        let positions: [Int?] = seen.map { order.firstIndex(of: $0) }
        #expect(!positions.contains(nil), "only states of the expected sequence: \(seen)")
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "in order: \(seen)")
        #expect(seen.last == "0 - -")
        for index in 1...2 {
            #expect(seen.contains("\(4 - index) task-\(index) ARRIVED"), "a 60 s dwell (3 s of real time) is long enough to see: \(seen)")
        }

        let vehicle = try fleet.deliveryVehicle("van-1")
        #expect(vehicle.remainingVehicleJourneySegments.isEmpty)
        for index in 1...3 {
            let task = try fleet.task("task-\(index)")
            #expect(task.state == .closed, "removing a served stop closes its task")
            #expect(task.deliveryVehicleId == "van-1")
        }
        let last = try #require(vehicle.lastLocation?.location)
        #expect(Geodesy.distance(GeoPoint(latitude: last.latitude, longitude: last.longitude), Self.places[2]) < 50,
                "the vehicle stands at the last stop")
        let status = try #require(daemon.status)
        #expect(status["state"] == "STOPPED")
        #expect(status["stops"]?["completed"] == 3)
        #expect(status["stops"]?["remaining"] == 0)
        #expect(status["updatesFailed"] == 0, "\(daemon.log)")
        #expect(daemon.log.contains("fields=lastLocation,currentRouteSegment,currentRouteSegmentEndPoint,remainingDistanceMeters,remainingDuration"),
                "the location goes with the route to the next stop: \(daemon.log)")
        #expect(!daemon.log.contains("vehicleState"), "a delivery vehicle has no state")
    }

    @Test("--dwell manual: the vehicle waits at its ARRIVED stop until SIGUSR2 serves it")
    func manualDwellAndSignal() async throws {
        let fleet = try SharedFleet(overHTTP: true)
        try fleet.createDeliveryVehicle("van-2", at: Self.depot)
        try fleet.setStops("van-2", [try fleet.createTask("parcel-1", at: Self.places[0], seconds: 30),
                                     try fleet.createTask("parcel-2", at: Self.places[1], seconds: 30)])
        let daemon = try DaemonProcess(fleet.transportArguments + [
            "--delivery-vehicle", "van-2", "--source", "simulate:plan", "--speedup", "20", "--dwell", "manual",
        ], folder: fleet.folder)
        try await daemon.waitForStatus("the first stop ARRIVED") { $0["stops"]?["nextState"] == "ARRIVED" }
        daemon.signal(SIGUSR2)
        try await daemon.waitForStatus("the first stop served") { $0["stops"]?["completed"] == 1 }
        #expect(try fleet.task("parcel-1").state == .closed)
        #expect(try fleet.deliveryVehicle("van-2").remainingVehicleJourneySegments.first?.stop?.tasks.first?.taskId == "parcel-2")
        try await daemon.waitForStatus("the second stop ARRIVED") { $0["stops"]?["nextState"] == "ARRIVED" }
        try await Task.sleep(for: .seconds(1))  // 20 s of simulated time: no dwell ends by itself
        #expect(try fleet.task("parcel-2").state == .open)
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
        #expect(daemon.log.contains("notice stop-completion-requested"), "\(daemon.log)")
    }

    @Test("--stop-updates server: the vehicle drives to its stop and reports its route, and leaves the stop's state to the provider")
    func stopsLeftToTheServer() async throws {
        let fleet = try SharedFleet(overHTTP: true)
        try fleet.createDeliveryVehicle("van-3", at: Self.depot)
        try fleet.setStops("van-3", [try fleet.createTask("parcel-3", at: Self.places[0], seconds: 30)])
        let daemon = try DaemonProcess(fleet.transportArguments + [
            "--delivery-vehicle", "van-3", "--source", "simulate:plan", "--speedup", "20", "--stop-updates", "server",
        ], folder: fleet.folder)
        try await daemon.waitForStatus("the vehicle at its stop") { status in
            guard let latitude = status["lastLocation"]?["latitude"]?.doubleValue,
                  let longitude = status["lastLocation"]?["longitude"]?.doubleValue else { return false }
            return Geodesy.distance(GeoPoint(latitude: latitude, longitude: longitude), Self.places[0]) < 1
        }
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
        #expect(try fleet.deliveryVehicle("van-3").remainingVehicleJourneySegments.first?.stop?.state == .new)
        #expect(!daemon.log.contains(" stop-"), "no stop changes: \(daemon.log)")
        #expect(daemon.log.contains("stop_updates=server"))
        #expect(daemon.log.contains("fields=lastLocation,currentRouteSegment,currentRouteSegmentEndPoint"), "\(daemon.log)")
    }

    @Test("Over a server checking tokens: an untrusted driver's token reports the location but may not change stops (stop reporting ends, tracking goes on); a trusted driver's may")
    func driverRoles() async throws {
        let secrets = FileManager.default.temporaryDirectory.appendingPathComponent("driver-report-jwt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: secrets, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: secrets) }
        let tokens = try MintedTokens(folder: secrets, provider: "demo")
        let fleet = try SharedFleet(overHTTP: true, serverArguments: tokens.serverArguments)
        for (index, role) in ["driver", "trusted-driver"].enumerated() {
            let van = "van-\(role)"
            try fleet.createDeliveryVehicle(van, at: Self.depot)
            try fleet.setStops(van, [try fleet.createTask("parcel-\(index)", at: Self.places[0], seconds: 30)])
            let token = try tokens.mint(role: role, ["--delivery-vehicle", van])
            let daemon = try DaemonProcess(fleet.transportArguments + [
                "--delivery-vehicle", van, "--source", "simulate:plan", "--speedup", "20", "--token", token,
            ], folder: fleet.folder, name: role)
            try await daemon.waitForStatus("the vehicle near its stop") { status in
                guard let latitude = status["lastLocation"]?["latitude"]?.doubleValue,
                      let longitude = status["lastLocation"]?["longitude"]?.doubleValue else { return false }
                return Geodesy.distance(GeoPoint(latitude: latitude, longitude: longitude), Self.places[0]) < 10
            }
            if role == "driver" {
                #expect(daemon.log.contains("error stop-updates-disabled"), "\(daemon.log)")
                #expect(daemon.log.contains("PERMISSION_DENIED"))
                #expect(try fleet.deliveryVehicle(van).remainingVehicleJourneySegments.first?.stop?.state == .new)
            } else {
                try await daemon.waitForStatus("the stop ARRIVED") { $0["stops"]?["nextState"] == "ARRIVED" }
                #expect(try fleet.deliveryVehicle(van).remainingVehicleJourneySegments.first?.stop?.state == .arrived)
                #expect(!daemon.log.contains("stop-update"), "\(daemon.log)")
            }
            daemon.signal(SIGTERM)
            #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
            #expect(daemon.status?["updatesFailed"] == 0, "the location updates all went through: \(daemon.log)")
        }
    }

    @Test("Delivery options are checked: one kind of vehicle, no --state, stop options only for delivery vehicles", arguments: [
        (["--vehicle", "v", "--delivery-vehicle", "van-1", "--source", "nmea:-"], "give one of them, not both"),
        (["--delivery-vehicle", "van-1", "--state", "offline"], "a delivery vehicle has no state"),
        (["--vehicle", "v", "--source", "nmea:-", "--dwell", "1m"], "--dwell is about a delivery vehicle's stops"),
        (["--delivery-vehicle", "van-1", "--source", "nmea:-", "--dwell", "soon"], "--dwell 'soon' is not tasks, manual or a duration"),
        (["--delivery-vehicle", "van-1", "--source", "nmea:-", "--arrival-radius", "0"], "--arrival-radius must be above 0"),
        (["--delivery-vehicle", "van-1", "--source", "simulate:plan", "--stops", "100m"], "--stops puts stops along a route"),
        (["--delivery-vehicle", "bad/id", "--source", "nmea:-"], "--provider/--delivery-vehicle"),
        ([] as [String], "give --vehicle ID (a rides vehicle) or --delivery-vehicle ID"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let fleet = try SharedFleet()
        let run = try Products.run(fleet.transportArguments + arguments, folder: fleet.folder)
        #expect(run.status == 2, "\(run.log)")
        #expect(run.log.contains(message), "\(run.log)")
    }

    @Test("A delivery vehicle that does not exist is a fatal start-up error: NOT_FOUND, exit 15")
    func missingDeliveryVehicle() throws {
        let fleet = try SharedFleet()
        let run = try Products.run(fleet.transportArguments + ["--delivery-vehicle", "ghost", "--source", "nmea:-"], folder: fleet.folder)
        #expect(run.status == 15, "\(run.log)")
        #expect(run.log.contains("providers/demo/deliveryVehicles/ghost"))
    }
}
