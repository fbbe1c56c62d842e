import FleetEngine
import FleetErrors
import FleetModel
import MemoryStore

extension FuzzTarget {
    /// The list and search filters, both readings of the one filter syntax: the input is a filter,
    /// parsed as ListTasks' `TaskFilter` and run over three tasks, then passed to ListVehicles over a
    /// vehicle with attributes. A filter either parses or is INVALID_ARGUMENT naming `filter`; when
    /// it parses, `NOT (filter)` (if still within the bounds) must pass exactly the other tasks.
    static let filter = FuzzTarget(name: "filter", summary: "ListTasks' TaskFilter and ListVehicles' attribute filter") { data in
        let filter = text(data)
        do {
            let parsed = try TaskFilter(parsing: filter)
            let passing = FilterScript.tasks.map(parsed.matches)
            if !parsed.isEmpty, let negated = try? TaskFilter(parsing: "NOT (" + filter + ")") {
                invariant(FilterScript.tasks.map(negated.matches) == passing.map { !$0 }, "NOT (…) does not invert \(filter.debugDescription)")
            }
        } catch {
            FilterScript.expectFilterError(error, filter)
        }
        let engine = Engine(store: MemoryStore(), clock: ManualClock())
        FilterScript.setUpVehicle(engine)
        do {
            _ = try engine.listVehicles(ListVehiclesRequest(parent: FilterScript.parent, vehicleTypeCategories: [.auto], filter: filter))
        } catch {
            FilterScript.expectFilterError(error, filter)
        }
    }
}

enum FilterScript {
    static let parent = "providers/p"

    /// An open delivery with a vehicle, location and typed attributes; a closed, succeeded pickup;
    /// and a task with nothing but its type and state.
    static let tasks: [DeliveryTask] = [
        DeliveryTask(type: .delivery, state: .open, trackingId: "pkg-1", deliveryVehicleId: "van-1",
                     plannedLocation: LocationInfo(point: LatLng(latitude: 52.52, longitude: 13.40)),
                     taskDuration: ProtoDuration(seconds: 600),
                     attributes: [TaskAttribute(key: "size", taskAttributeValue: .stringValue("L")),
                                  TaskAttribute(key: "fragile", taskAttributeValue: .boolValue(true)),
                                  TaskAttribute(key: "weight", taskAttributeValue: .numberValue(12.5))]),
        DeliveryTask(type: .pickup, state: .closed, taskOutcome: .succeeded,
                     taskOutcomeTime: Timestamp(seconds: 1_714_566_600),
                     taskOutcomeLocation: LocationInfo(point: LatLng(latitude: 36.6, longitude: -122.4)),
                     taskOutcomeLocationSource: .provider, trackingId: "pkg-2",
                     plannedLocation: LocationInfo(point: LatLng(latitude: 36.5, longitude: -122.5)),
                     taskDuration: ProtoDuration(seconds: 120, nanos: 500_000_000),
                     attributes: [TaskAttribute(key: "size", taskAttributeValue: .stringValue("S"))]),
        DeliveryTask(type: .unavailable, state: .open),
    ]

    /// Vehicle v1, online with attributes `tier = premium` and `ev = true`.
    static func setUpVehicle(_ engine: Engine) {
        _ = try? engine.createVehicle(CreateVehicleRequest(parent: parent, vehicleId: "v1", vehicle: Vehicle(
            vehicleState: .online, supportedTripTypes: [.exclusive],
            lastLocation: VehicleLocation(location: LatLng(latitude: 52.52, longitude: 13.40)), maximumCapacity: 4,
            attributes: [VehicleAttribute(key: "tier", value: "premium"), VehicleAttribute(key: "ev", value: "true")],
            vehicleType: VehicleType(category: .auto))))
    }

    /// A refused filter must be INVALID_ARGUMENT naming `filter`.
    static func expectFilterError(_ error: any Error, _ filter: String) {
        let fleetError = error as? FleetError
        invariant(fleetError?.code == .invalidArgument && fleetError?.field == "filter",
                  "\(filter.debugDescription) was refused with \(error), not INVALID_ARGUMENT naming filter")
    }
}
