import FleetModel
import Testing

/// The generated `FieldPath` enums and the update sets of the messages an Update call changes.
@Suite("Typed field paths")
struct FieldPathTests {
    @Test func casesAreTheJSONNamesInDeclarationOrder() {
        #expect(Vehicle.FieldPath.allCases.first == .name)
        #expect(Vehicle.FieldPath.vehicleState.rawValue == "vehicleState")
        #expect(Trip.FieldPath.allCases.map(\.rawValue).prefix(4) == ["name", "vehicleId", "tripStatus", "tripType"])
        #expect(Set(Vehicle.FieldPath.allCases.map(\.rawValue)) == Vehicle.fieldPaths)
        #expect(Set(Trip.FieldPath.allCases.map(\.rawValue)) == Trip.fieldPaths)
        #expect(Set(LatLng.FieldPath.allCases.map(\.rawValue)) == LatLng.fieldPaths)
        #expect(Vehicle.FieldPath(rawValue: "vehicle_state") == nil, "raw values are JSON names only")
        #expect("\(Trip.FieldPath.intermediateDestinationIndex)" == "intermediateDestinationIndex")
    }

    @Test func theFirstSegmentOfAPathInEitherSpellingNamesTheField() {
        #expect(Vehicle.FieldPath(firstSegmentOf: "lastLocation.location") == .lastLocation)
        #expect(Vehicle.FieldPath(firstSegmentOf: "last_location.update_time") == .lastLocation)
        #expect(Vehicle.FieldPath(firstSegmentOf: "current_route_segment_end_point") == .currentRouteSegmentEndPoint)
        #expect(Vehicle.FieldPath(firstSegmentOf: "availableCapacity") == nil)
        #expect(Vehicle.FieldPath(firstSegmentOf: "") == nil)
    }

    /// Each field has exactly one answer to "may an update mask name it?".
    @Test func updatableAndServerOwnedSplitEveryField() {
        func check<Message: UpdatableMessage>(_: Message.Type) {
            #expect(Message.updatableFields.isDisjoint(with: Message.serverOwnedFields), "\(Message.self)")
            #expect(Message.updatableFields.union(Message.serverOwnedFields) == Set(Message.FieldPath.allCases), "\(Message.self)")
        }
        check(Vehicle.self)
        check(Trip.self)
    }

    @Test func vehicleSetsFollowGooglesOutputOnlyFields() {
        #expect(Vehicle.serverOwnedFields == [.name, .currentTrips, .currentRouteSegmentVersion, .waypointsVersion])
        #expect(Vehicle.updatableFields.count == 19)
        #expect(Vehicle.updatableFields.isSuperset(of: [.vehicleState, .lastLocation, .pastLocations, .deviceSettings, .waypoints]))
    }

    @Test func tripSetsFollowGooglesOutputOnlyAndImmutableFieldsAndTheEnginesOwn() {
        // Output only in Google's docs.
        #expect(Trip.serverOwnedFields.isSuperset(of: [.name, .pickupTime, .dropoffTime, .route, .remainingWaypoints, .lastLocation]))
        // Immutable in Google's docs.
        #expect(Trip.serverOwnedFields.contains(.numberOfPassengers))
        // The engine's own: a version guard the client sends back, and a request option.
        #expect(Trip.serverOwnedFields.contains(.intermediateDestinationsVersion))
        #expect(Trip.serverOwnedFields.contains(.view))
        #expect(Trip.serverOwnedFields.count == 20)
        #expect(Trip.updatableFields == [
            .vehicleId, .tripStatus, .tripType, .pickupPoint, .actualPickupPoint, .actualPickupArrivalPoint,
            .intermediateDestinations, .intermediateDestinationIndex, .actualIntermediateDestinationArrivalPoints,
            .actualIntermediateDestinations, .dropoffPoint, .actualDropoffPoint, .vehicleWaypoints, .attributes,
        ])
    }

    @Test func aMaskOfTypedFieldsHoldsTheirJSONNames() {
        let mask = FieldMask(fields: [Vehicle.FieldPath.vehicleState, .lastLocation])
        #expect(mask.paths == ["vehicleState", "lastLocation"])
        #expect(mask.description == "vehicleState,lastLocation")
    }
}
