import FleetEngine
import FleetInterface
import FleetModel
import FleetTestSupport
import Foundation
import SQLiteStore

/// A shipment driven from the test process through an SQLite store file that a real
/// `fleet-admin serve` serves, followed by `consumer-follow --tracking-id` over http: a van with two
/// stops, another customer's parcel first, then ours (tracking ID `PARCEL-7`); the van drives, the
/// first stop is done, ours is delivered or fails.
final class SharedStoreShipment {
    static let provider = "ship"
    static let trackingID = "PARCEL-7"
    static let depot = (48.100, 11.500)
    static let otherStop = (48.110, 11.520)
    static let ourStop = (48.120, 11.540)

    let folder: URL
    let server: ServerProcess
    /// The Fleet Engine calls the test drives the shipment with (on the server's store).
    let api: any FleetAPI
    private let store: SQLiteStore

    var parent: String { "providers/\(Self.provider)" }
    var trackingName: String { "\(parent)/taskTrackingInfo/\(Self.trackingID)" }
    /// The follower's wiring and subject.
    var arguments: [String] { ["--transport", server.url, "--provider", Self.provider, "--tracking-id", Self.trackingID] }

    /// The van at the depot, both parcels assigned to it; `view` is our task's tracking view config.
    init(view: TaskTrackingViewConfig? = nil, serverArguments: [String] = []) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("consumer-follow-shipment-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("fleet.db").path
        store = try SQLiteStore(path: path)
        api = Engine(store: store)
        server = try ServerProcess(store: "sqlite:" + path, arguments: ["--provider", Self.provider] + serverArguments)
        _ = try api.createDeliveryVehicle(CreateDeliveryVehicleRequest(
            parent: parent, deliveryVehicleId: "van-1", deliveryVehicle: DeliveryVehicle(lastLocation: Self.fix(Self.depot))))
        for (id, tracking, place, taskView) in [("other", "OTHER", Self.otherStop, nil), ("mine", Self.trackingID, Self.ourStop, view)] {
            _ = try api.createTask(CreateTaskRequest(parent: parent, taskId: id, task: DeliveryTask(
                type: .delivery, state: .open, trackingId: tracking, plannedLocation: LocationInfo(point: Self.point(place)),
                taskDuration: ProtoDuration(timeInterval: 60), taskTrackingViewConfig: taskView)))
        }
        try setStops([(Self.otherStop, "other"), (Self.ourStop, "mine")])
    }

    deinit {
        server.stop()
        try? store.close()
        try? FileManager.default.removeItem(at: folder)
    }

    static func point(_ p: (Double, Double)) -> LatLng { LatLng(latitude: p.0, longitude: p.1) }

    /// What the van's phone reports at `p`: heading north-east at 27 km/h, to within 5 m.
    static func fix(_ p: (Double, Double)) -> DeliveryVehicleLocation {
        DeliveryVehicleLocation(location: point(p), latlngAccuracy: 5, heading: 45, speed: 7.5)
    }

    /// The van's remaining stops, in order.
    func setStops(_ stops: [((Double, Double), String)]) throws {
        let segments = stops.map { place, task in
            VehicleJourneySegment(stop: VehicleStop(plannedLocation: LocationInfo(point: Self.point(place)),
                                                    tasks: [VehicleStop.TaskInfo(taskId: task)], state: .new))
        }
        _ = try api.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
            deliveryVehicle: DeliveryVehicle(name: "\(parent)/deliveryVehicles/van-1", remainingVehicleJourneySegments: segments),
            updateMask: FieldMask(["remainingVehicleJourneySegments"])))
    }

    /// The van reports where it is.
    func move(to p: (Double, Double)) throws {
        _ = try api.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
            deliveryVehicle: DeliveryVehicle(name: "\(parent)/deliveryVehicles/van-1", lastLocation: Self.fix(p)),
            updateMask: FieldMask(["lastLocation"])))
    }

    /// Our stop is done: it leaves the van's stops (closing the task) with `outcome`.
    func finish(_ outcome: DeliveryTask.TaskOutcome) throws {
        try setStops([])
        _ = try api.updateTask(UpdateTaskRequest(task: DeliveryTask(name: "\(parent)/tasks/mine", taskOutcome: outcome),
                                                 updateMask: FieldMask(["taskOutcome"])))
    }
}
