import FleetModel
import Foundation
import RESTClient

/// `fleet-bench deliveries`: what a Deliveries call costs the server against the rides call it
/// stands beside. The aim: GetTaskTrackingInfo and UpdateDeliveryVehicle (a location) of a delivery
/// vehicle with 20 stops cost no more server CPU per call than GetTrip and UpdateVehicle (a location)
/// in the same run.
///
/// One `fleet-admin serve` over the memory store (so the figures are the engine's and the
/// transport's, not a store's commits), set up as the HTTP rows' server (vehicles v0…v99, trip t1 on
/// v1) plus delivery vehicles d0…d63, each with 20 stops of one DELIVERY task each. Every task has a
/// tracking ID of its own whose view config shows everything (vehicle location, route, stops left,
/// distance, arrival and completion times), so a tracking answer computes all it can; the one read is
/// that of d0's last stop, the task with the most stops before it.
///
/// Each of the four calls gets the same number of calls per round over REST from h2load (HTTP/1.1, 64
/// connections, as the gRPC group's REST rows), the updates one vehicle per connection (calls in flight
/// on one vehicle would conflict and measure that). Rounds alternate the order (forward, then
/// backward), so each pair's two calls run next to each other and neither always first. The server's
/// CPU per call is read from `/proc/PID/stat` around each load; a ratio is taken within each round and
/// the median of the rounds' ratios is the figure the aim is judged on.
enum DeliveryBenchmarks {
    /// Stops of each delivery vehicle, and delivery vehicles (one per update connection).
    static let stopCount = 20
    static let deliveryVehicleCount = GRPCBenchmarks.callsInFlight
    static let provider = HTTPBenchmarks.provider

    /// Calls of each method per round (a multiple of 64, shared evenly among the update connections),
    /// the rounds, and the calls of each method in the discarded warm-up.
    struct Plan {
        var callsPerRound: Int
        var rounds: Int
        var warmUpCalls: Int

        static let full = Plan(callsPerRound: 9_600, rounds: 10, warmUpCalls: 6_400)
        /// `fleet-bench deliveries short`: one small round, to see that the group works.
        static let short = Plan(callsPerRound: 640, rounds: 1, warmUpCalls: 64)
    }

    /// The meridian delivery vehicle `vehicle` and its stops are on, 1e-3 degrees (74 m) from the next one's.
    static func longitude(_ vehicle: Int) -> Double { 11.5 + Double(vehicle) * 1e-3 }

    /// The tracking ID on stop `stop` (0-based) of delivery vehicle `vehicle`.
    static func trackingID(vehicle: Int, stop: Int) -> String { "d\(vehicle)-s\(stop)" }
    static var trackedID: String { trackingID(vehicle: 0, stop: stopCount - 1) }

    static func run(plan: Plan = .full) -> [BenchmarkRow] {
        guard let h2load = HTTPBenchmarks.which("h2load") else {
            return [BenchmarkRow(name: "Deliveries benchmarks", skipped: "h2load is not installed (make setup installs nghttp2-client)")]
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-deliveries-bench-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server: BenchServer
        do {
            server = try HTTPBenchmarks.preparedServer(folder: folder, store: "memory")
        } catch {
            return [BenchmarkRow(name: "fleet-admin serve --store memory", failed: "\(error)")]
        }
        defer { server.stop() }
        do {
            try setUpDeliveries(try RESTClient(baseURL: server.url))
        } catch {
            return [BenchmarkRow(name: "Deliveries set-up (\(deliveryVehicleCount) vehicles x \(stopCount) stops)", failed: "\(error)")]
        }

        let parent = "/v1/providers/\(provider)"
        let vehicleLocation = Vehicle(lastLocation: VehicleLocation(location: LatLng(latitude: 53.5001, longitude: 13.4)))
        // Each delivery vehicle reports a place 11 m along its own line of stops (before the first).
        func deliveryLocation(_ vehicle: Int) -> DeliveryVehicle {
            DeliveryVehicle(lastLocation: DeliveryVehicleLocation(location: LatLng(latitude: 48.1001, longitude: longitude(vehicle))))
        }
        typealias Request = GRPCBenchmarks.Request
        // [GetTrip, GetTaskTrackingInfo, UpdateVehicle, UpdateDeliveryVehicle]: each Deliveries call right after its baseline.
        let calls: [(name: String, requests: [Request])] = [
            ("GetTrip", [Request(verb: "GET", path: "\(parent)/trips/t1", body: nil, contentType: nil)]),
            ("GetTaskTrackingInfo, last of 20 stops", [Request(verb: "GET", path: "\(parent)/taskTrackingInfo/\(trackedID)", body: nil, contentType: nil)]),
            ("UpdateVehicle (location)", (0..<deliveryVehicleCount).map {
                Request(verb: "PUT", path: "\(parent)/vehicles/v\($0)?updateMask=lastLocation", body: Array(vehicleLocation.jsonBytes()),
                        contentType: "application/json")
            }),
            ("UpdateDeliveryVehicle (location), 20 stops", (0..<deliveryVehicleCount).map {
                Request(verb: "PATCH", path: "\(parent)/deliveryVehicles/d\($0)?updateMask=lastLocation", body: Array(deliveryLocation($0).jsonBytes()),
                        contentType: "application/json")
            }),
        ]
        let pid = server.process.processIdentifier
        func load(_ index: Int, calls count: Int) -> GRPCBenchmarks.Load? {
            GRPCBenchmarks.load(h2load, server.url, calls[index].requests, folder: folder, seconds: 0, calls: count, grpc: false, server: pid)
        }
        for index in calls.indices { _ = load(index, calls: plan.warmUpCalls) }
        // loads[call][round]; nil where h2load did not report or an answer was not 200.
        var loads = [[GRPCBenchmarks.Load?]](repeating: [], count: calls.count)
        var notOK = [Int](repeating: 0, count: calls.count)
        for round in 0..<plan.rounds {
            let order = round % 2 == 0 ? Array(calls.indices) : calls.indices.reversed()
            var measured = [GRPCBenchmarks.Load?](repeating: nil, count: calls.count)
            for index in order {
                let result = load(index, calls: plan.callsPerRound)
                notOK[index] += result?.notOK ?? 0
                measured[index] = result.flatMap { $0.notOK == 0 ? $0 : nil }
            }
            for index in calls.indices { loads[index].append(measured[index]) }
        }

        var rows: [BenchmarkRow] = []
        let median = GRPCBenchmarks.median
        for (index, call) in calls.enumerated() {
            let done = loads[index].compactMap { $0 }
            guard !done.isEmpty else {
                rows.append(BenchmarkRow(name: "\(call.name): server CPU per call",
                                         failed: notOK[index] > 0 ? "\(notOK[index]) answers not 200" : "h2load did not report"))
                continue
            }
            rows.append(BenchmarkRow(
                name: "\(call.name): server CPU per call", value: .microseconds(median(done.map(\.serverMicros))),
                comparison: String(format: "%d calls a round, %.0f/s; rounds %@", plan.callsPerRound, median(done.map(\.rate)),
                                   done.map { String(format: "%.1f", $0.serverMicros) }.joined(separator: ", "))))
        }
        for (deliveries, baseline) in [(1, 0), (3, 2)] {
            let ratios = zip(loads[deliveries], loads[baseline]).compactMap { pair -> Double? in
                guard let d = pair.0, let b = pair.1, b.serverMicros > 0 else { return nil }
                return d.serverMicros / b.serverMicros
            }.sorted()
            // The methods' names alone: "UpdateDeliveryVehicle / UpdateVehicle".
            func method(_ call: String) -> Substring { call.split(whereSeparator: { $0 == "," || $0 == " " }).first! }
            let name = "\(method(calls[deliveries].name)) / \(method(calls[baseline].name)), server CPU per call"
            guard !ratios.isEmpty else {
                rows.append(BenchmarkRow(name: name, failed: "no round measured both"))
                continue
            }
            rows.append(BenchmarkRow(name: name, value: .plain(median(ratios), decimals: 2),
                                     comparison: String(format: "median of %d rounds' ratios, range %.2f–%.2f; aim <= 1.00", ratios.count,
                                                        ratios.first!, ratios.last!),
                                     ratio: median(ratios), baseline: "\(method(calls[baseline].name)), server CPU per call"))
        }
        return rows
    }

    /// Delivery vehicles d0…d63 near (48.10, 11.50), each with `stopCount` stops 200 m apart going
    /// north, one OPEN DELIVERY task a stop. Checks that the tracked ID's answer shows all 20 stops.
    static func setUpDeliveries(_ client: RESTClient) throws {
        let parent = "providers/\(provider)"
        let always = TaskTrackingViewConfig.VisibilityOption(visibilityOption: .always(true))
        let view = TaskTrackingViewConfig(routePolylinePointsVisibility: always, estimatedArrivalTimeVisibility: always,
                                          estimatedTaskCompletionTimeVisibility: always, remainingDrivingDistanceVisibility: always,
                                          remainingStopCountVisibility: always, vehicleLocationVisibility: always)
        for vehicle in 0..<deliveryVehicleCount {
            let meridian = longitude(vehicle)
            _ = try client.createDeliveryVehicle(CreateDeliveryVehicleRequest(parent: parent, deliveryVehicleId: "d\(vehicle)", deliveryVehicle: DeliveryVehicle(
                lastLocation: DeliveryVehicleLocation(location: LatLng(latitude: 48.1, longitude: meridian)))))
            var stops: [VehicleJourneySegment] = []
            for stop in 0..<stopCount {
                let taskID = "d\(vehicle)-t\(stop)"
                let place = LocationInfo(point: LatLng(latitude: 48.1 + Double(stop + 1) * 0.0018, longitude: meridian))
                _ = try client.createTask(CreateTaskRequest(parent: parent, taskId: taskID, task: DeliveryTask(
                    type: .delivery, state: .open, trackingId: trackingID(vehicle: vehicle, stop: stop), plannedLocation: place,
                    taskDuration: ProtoDuration(timeInterval: 120), taskTrackingViewConfig: view)))
                stops.append(VehicleJourneySegment(stop: VehicleStop(plannedLocation: place, tasks: [VehicleStop.TaskInfo(taskId: taskID)], state: .new)))
            }
            _ = try client.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
                deliveryVehicle: DeliveryVehicle(name: "\(parent)/deliveryVehicles/d\(vehicle)", remainingVehicleJourneySegments: stops),
                updateMask: ["remainingVehicleJourneySegments"]))
        }
        let info = try client.getTaskTrackingInfo(GetTaskTrackingInfoRequest(name: "\(parent)/taskTrackingInfo/\(trackedID)"))
        guard info.remainingStopCount == Int32(stopCount), info.state == .open, !info.routePolylinePoints.isEmpty else {
            throw BenchServer.StartFailure(description: "the tracked task's answer does not show its \(stopCount) stops and route: \(info)")
        }
    }
}
