import FleetEngine
import FleetModel
import Testing

/// Builders for Deliveries requests on a `Fixture`'s engine. Places are around Munich: the depot at
/// (48.10, 11.50), stops a few hundred metres to a few kilometres away.
extension Fixture {
    static let depot = (48.10, 11.50)

    func deliveryVehicleName(_ id: String) -> String { "providers/\(provider)/deliveryVehicles/\(id)" }
    func taskName(_ id: String) -> String { "providers/\(provider)/tasks/\(id)" }
    func trackingName(_ id: String) -> String { "providers/\(provider)/taskTrackingInfo/\(id)" }

    @discardableResult
    func createDeliveryVehicle(_ id: String, at location: (Double, Double)? = Fixture.depot,
                               attributes: [DeliveryVehicleAttribute] = []) throws -> DeliveryVehicle {
        var vehicle = DeliveryVehicle(attributes: attributes)
        if let location { vehicle.lastLocation = DeliveryVehicleLocation(location: Self.point(location.0, location.1)) }
        return try engine.createDeliveryVehicle(CreateDeliveryVehicleRequest(parent: parent, deliveryVehicleId: id, deliveryVehicle: vehicle))
    }

    /// A task as CreateTask takes it: OPEN, with a tracking ID unless its type may not have one.
    static func newTask(_ type: DeliveryTask.TaskType = .delivery, tracking: String? = "PARCEL-1",
                        at place: (Double, Double)? = (48.11, 11.52), seconds: Double = 120,
                        view: TaskTrackingViewConfig? = nil, attributes: [TaskAttribute] = []) -> DeliveryTask {
        DeliveryTask(type: type, state: .open, trackingId: tracking,
                     plannedLocation: place.map { LocationInfo(point: point($0.0, $0.1)) },
                     taskDuration: ProtoDuration(timeInterval: seconds), taskTrackingViewConfig: view, attributes: attributes)
    }

    @discardableResult
    func createTask(_ id: String, _ task: DeliveryTask = Fixture.newTask()) throws -> DeliveryTask {
        try engine.createTask(CreateTaskRequest(parent: parent, taskId: id, task: task))
    }

    /// A stop at a place doing `tasks`.
    static func stop(_ place: (Double, Double), _ tasks: [String], _ state: VehicleStop.State = .new) -> VehicleJourneySegment {
        VehicleJourneySegment(stop: VehicleStop(plannedLocation: LocationInfo(point: point(place.0, place.1)),
                                                tasks: tasks.map { VehicleStop.TaskInfo(taskId: $0) }, state: state))
    }

    @discardableResult
    func setStops(_ vehicle: String, _ stops: [VehicleJourneySegment]) throws -> DeliveryVehicle {
        try engine.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
            deliveryVehicle: DeliveryVehicle(name: deliveryVehicleName(vehicle), remainingVehicleJourneySegments: stops),
            updateMask: FieldMask(["remainingVehicleJourneySegments"])))
    }

    @discardableResult
    func moveDeliveryVehicle(_ vehicle: String, to lat: Double, _ lng: Double, speed: Double? = nil) throws -> DeliveryVehicle {
        try engine.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
            deliveryVehicle: DeliveryVehicle(name: deliveryVehicleName(vehicle),
                                             lastLocation: DeliveryVehicleLocation(location: Self.point(lat, lng), speed: speed)),
            updateMask: FieldMask(["lastLocation"])))
    }

    @discardableResult
    func updateTask(_ id: String, _ task: DeliveryTask, _ paths: [String]) throws -> DeliveryTask {
        var task = task
        task.name = taskName(id)
        return try engine.updateTask(UpdateTaskRequest(task: task, updateMask: FieldMask(paths)))
    }

    func task(_ id: String) throws -> DeliveryTask {
        try engine.getTask(GetTaskRequest(name: taskName(id)))
    }

    func deliveryVehicle(_ id: String) throws -> DeliveryVehicle {
        try engine.getDeliveryVehicle(GetDeliveryVehicleRequest(name: deliveryVehicleName(id)))
    }

    func tracking(_ id: String) throws -> TaskTrackingInfo {
        try engine.getTaskTrackingInfo(GetTaskTrackingInfoRequest(name: trackingName(id)))
    }
}
