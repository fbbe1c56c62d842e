import FleetEngine
import FleetErrors
import FleetModel

extension JournalTransport {
    /// The request as every process will read it back from the journal: the call is made with this, so
    /// the writer computes exactly what the readers will.
    ///
    /// - Throws: INVALID_ARGUMENT when the request does not survive its JSON form.
    func journaled<Request: ProtoMessage>(_ request: Request) throws -> Request {
        do {
            return try Request(jsonBytes: request.jsonBytes(), path: "request")
        } catch let error as FleetError {
            throw FleetError.invalidArgument("the request cannot be written to the journal: \(error.message)", field: error.field)
        }
    }

    /// Journals and applies `CreateVehicle`.
    public func createVehicle(_ request: CreateVehicleRequest) throws -> Vehicle {
        let request = try journaled(request)
        return try mutate(.createVehicle(request)) { try $0.createVehicle(request) }
    }

    /// Reads the vehicle, after applying what others appended.
    public func getVehicle(_ request: GetVehicleRequest) throws -> Vehicle {
        try read { try $0.getVehicle(request) }
    }

    /// Journals and applies `UpdateVehicle`.
    public func updateVehicle(_ request: UpdateVehicleRequest) throws -> Vehicle {
        let request = try journaled(request)
        return try mutate(.updateVehicle(request)) { try $0.updateVehicle(request) }
    }

    /// Journals and applies `UpdateVehicleAttributes`.
    public func updateVehicleAttributes(_ request: UpdateVehicleAttributesRequest) throws -> UpdateVehicleAttributesResponse {
        let request = try journaled(request)
        return try mutate(.updateVehicleAttributes(request)) { try $0.updateVehicleAttributes(request) }
    }

    /// Lists vehicles, after applying what others appended.
    public func listVehicles(_ request: ListVehiclesRequest) throws -> ListVehiclesResponse {
        try read { try $0.listVehicles(request) }
    }

    /// Searches vehicles, after applying what others appended.
    public func searchVehicles(_ request: SearchVehiclesRequest) throws -> SearchVehiclesResponse {
        try read { try $0.searchVehicles(request) }
    }

    /// Journals and applies `DeleteVehicle`.
    public func deleteVehicle(_ request: DeleteVehicleRequest) throws {
        let request = try journaled(request)
        return try mutate(.deleteVehicle(request)) { try $0.deleteVehicle(request) }
    }

    /// Journals and applies `CreateTrip`.
    public func createTrip(_ request: CreateTripRequest) throws -> Trip {
        let request = try journaled(request)
        return try mutate(.createTrip(request)) { try $0.createTrip(request) }
    }

    /// Reads the trip, after applying what others appended.
    public func getTrip(_ request: GetTripRequest) throws -> Trip {
        try read { try $0.getTrip(request) }
    }

    /// Journals and applies `UpdateTrip`.
    public func updateTrip(_ request: UpdateTripRequest) throws -> Trip {
        let request = try journaled(request)
        return try mutate(.updateTrip(request)) { try $0.updateTrip(request) }
    }

    /// Searches trips, after applying what others appended.
    public func searchTrips(_ request: SearchTripsRequest) throws -> SearchTripsResponse {
        try read { try $0.searchTrips(request) }
    }

    /// Journals and applies `DeleteTrip`.
    public func deleteTrip(_ request: DeleteTripRequest) throws {
        let request = try journaled(request)
        return try mutate(.deleteTrip(request)) { try $0.deleteTrip(request) }
    }

    /// Journals and applies `ReportBillableTrip` (validated by the engine; kept in the journal as the
    /// session's record of the report).
    public func reportBillableTrip(_ request: ReportBillableTripRequest) throws {
        let request = try journaled(request)
        return try mutate(.reportBillableTrip(request)) { try $0.reportBillableTrip(request) }
    }
}
