import FleetDriver
import FleetEngine
import FleetErrors
import FleetGeo
import FleetLocation
import FleetInterface
import FleetModel
import MemoryStore
import Synchronization
import Testing

/// The real engine over a memory store, with failures injected into UpdateVehicle (and GetVehicle) and
/// every UpdateVehicle request recorded: the server the reporter talks to in these tests.
final class FaultyEngine: FleetCallPerforming {
    let engine: Engine
    private let script = Mutex<[FleetError]>([])
    private let recorded = Mutex<[UpdateVehicleRequest]>([])
    private let failing = Mutex<FleetError?>(nil)
    private let getVehicleScript = Mutex<[FleetError]>([])
    private let deliveryScript = Mutex<[FleetError]>([])
    private let deliveryRecorded = Mutex<[UpdateDeliveryVehicleRequest]>([])

    init(clock: ManualClock = ManualClock()) {
        engine = Engine(store: MemoryStore(), clock: clock)
    }

    /// The next UpdateVehicle calls fail with these errors, in order.
    func failNext(_ errors: FleetError...) { script.withLock { $0 += errors } }
    /// Every UpdateVehicle call fails with `error` until this is called with nil (a server that is down).
    func failAll(with error: FleetError?) { failing.withLock { $0 = error } }
    /// The next GetVehicle calls fail with these errors, in order.
    func failNextGetVehicle(_ errors: FleetError...) { getVehicleScript.withLock { $0 += errors } }
    /// The next UpdateDeliveryVehicle calls fail with these errors, in order.
    func failNextDeliveryUpdate(_ errors: FleetError...) { deliveryScript.withLock { $0 += errors } }
    /// The UpdateDeliveryVehicle requests that reached this server (failed ones included).
    var deliveryRequests: [UpdateDeliveryVehicleRequest] { deliveryRecorded.withLock { $0 } }
    /// The UpdateVehicle requests that reached this server (failed ones included).
    var requests: [UpdateVehicleRequest] { recorded.withLock { $0 } }
    /// The masks of those requests.
    var masks: [String] { requests.map { $0.updateMask?.description ?? "" } }

    func updateVehicle(_ request: UpdateVehicleRequest) throws -> Vehicle {
        recorded.withLock { $0.append(request) }
        if let error = failing.withLock({ $0 }) { throw error }
        if let error = script.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { throw error }
        return try engine.updateVehicle(request)
    }

    func updateDeliveryVehicle(_ request: UpdateDeliveryVehicleRequest) throws -> DeliveryVehicle {
        deliveryRecorded.withLock { $0.append(request) }
        if let error = deliveryScript.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { throw error }
        return try engine.updateDeliveryVehicle(request)
    }

    func getVehicle(_ request: GetVehicleRequest) throws -> Vehicle {
        if let error = getVehicleScript.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { throw error }
        return try engine.getVehicle(request)
    }

    // MARK: Every other call, to the engine

    func perform<Response: ProtoMessage>(_ call: FleetCall, returning: Response.Type) throws -> Response {
        try call.respond(from: engine).message(as: Response.self)
    }

    func perform(_ call: FleetCall) throws {
        _ = try call.respond(from: engine)
    }

    /// Creates an OFFLINE car `vehicleID` of provider `demo`.
    @discardableResult
    func createVehicle(_ vehicleID: String = "cab-1") throws -> VehicleName {
        _ = try engine.createVehicle(CreateVehicleRequest(
            parent: "providers/demo", vehicleId: vehicleID,
            vehicle: Vehicle(vehicleState: .offline, supportedTripTypes: [.exclusive], maximumCapacity: 4,
                             vehicleType: VehicleType(category: .auto))))
        return try VehicleName(provider: "demo", vehicleID: vehicleID)
    }

    /// The vehicle as the engine has it.
    func vehicle(_ name: VehicleName) throws -> Vehicle {
        try engine.getVehicle(GetVehicleRequest(name: name.description))
    }
}

extension FaultyEngine {
    /// Creates delivery vehicle `id` of provider `demo`, last seen at `place`.
    @discardableResult
    func createDeliveryVehicle(_ id: String = "van-1", at place: GeoPoint) throws -> DeliveryVehicleName {
        _ = try engine.createDeliveryVehicle(CreateDeliveryVehicleRequest(
            parent: "providers/demo", deliveryVehicleId: id,
            deliveryVehicle: DeliveryVehicle(lastLocation: DeliveryVehicleLocation(location: LatLng(latitude: place.latitude, longitude: place.longitude)))))
        return try DeliveryVehicleName(provider: "demo", deliveryVehicleID: id)
    }

    /// Creates an OPEN delivery task at `place` and returns a NEW stop doing it.
    func createTask(_ id: String, at place: GeoPoint, seconds: Double = 60) throws -> VehicleJourneySegment {
        let location = LocationInfo(point: LatLng(latitude: place.latitude, longitude: place.longitude))
        _ = try engine.createTask(CreateTaskRequest(parent: "providers/demo", taskId: id, task: DeliveryTask(
            type: .delivery, state: .open, trackingId: "PARCEL-\(id)", plannedLocation: location, taskDuration: ProtoDuration(timeInterval: seconds))))
        return VehicleJourneySegment(stop: VehicleStop(plannedLocation: location, tasks: [VehicleStop.TaskInfo(taskId: id)], state: .new))
    }

    /// Sets the vehicle's stops as the provider does (straight to the engine: not recorded).
    func setStops(_ name: DeliveryVehicleName, _ stops: [VehicleJourneySegment]) throws {
        _ = try engine.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
            deliveryVehicle: DeliveryVehicle(name: name.description, remainingVehicleJourneySegments: stops),
            updateMask: FieldMask(["remainingVehicleJourneySegments"])))
    }

    /// The delivery vehicle as the engine has it.
    func deliveryVehicle(_ name: DeliveryVehicleName) throws -> DeliveryVehicle {
        try engine.getDeliveryVehicle(GetDeliveryVehicleRequest(name: name.description))
    }

    /// The task as the engine has it.
    func task(_ id: String) throws -> DeliveryTask {
        try engine.getTask(GetTaskRequest(name: "providers/demo/tasks/\(id)"))
    }
}

/// Records what the reporter tells its listener.
final class RecordingListener: VehicleReporterListener {
    private let state = Mutex<(successes: [UpdateAttempt], failures: [(UpdateAttempt, FleetError, Double?)], drops: Int)>(([], [], 0))

    func reporterDidSucceed(_ attempt: UpdateAttempt) { state.withLock { $0.successes.append(attempt) } }
    func reporterDidFail(_ attempt: UpdateAttempt, error: FleetError, retryInSeconds: Double?) {
        state.withLock { $0.failures.append((attempt, error, retryInSeconds)) }
    }
    func reporterDidDropJump(_ sample: LocationSample, metersPerSecond: Double, meters: Double) { state.withLock { $0.drops += 1 } }
    func reporterDidReportStop(_ event: StopEvent) { stops.withLock { $0.append(event) } }
    private let stops = Mutex<[StopEvent]>([])

    /// The stop events, in order.
    var stopEvents: [StopEvent] { stops.withLock { $0 } }

    var successes: [UpdateAttempt] { state.withLock { $0.successes } }
    var failures: [(UpdateAttempt, FleetError, Double?)] { state.withLock { $0.failures } }
    var drops: Int { state.withLock { $0.drops } }
}

/// A place in Amsterdam and points around it.
enum Places {
    static let dam = GeoPoint(latitude: 52.3731, longitude: 4.8926)

    static func east(_ meters: Double, of point: GeoPoint = dam) -> GeoPoint {
        Geodesy.destination(from: point, bearing: 90, meters: meters)
    }

    static func sample(_ point: GeoPoint, at seconds: Double) -> LocationSample {
        LocationSample(point: point, time: Timestamp(timeIntervalSince1970: seconds), speed: 10, heading: 90)
    }
}
