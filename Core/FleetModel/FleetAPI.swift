/// The Fleet Engine v1 calls (TripService and VehicleService). Implemented by the engine and by every transport's client.
///
/// Every call is synchronous and throws `FleetError` (the gRPC code, a message naming the field or
/// resource, and the catalogue cause). Deletes and ReportBillableTrip return nothing (`{}` over REST).
public protocol FleetAPI: Sendable {
    /// Creates a vehicle (`POST /v1/{parent}/vehicles?vehicleId=ID`).
    func createVehicle(_ request: CreateVehicleRequest) throws -> Vehicle
    /// Returns a vehicle (`GET /v1/{name}`).
    func getVehicle(_ request: GetVehicleRequest) throws -> Vehicle
    /// Writes the fields named by the update mask (`PUT /v1/{name}?updateMask=…`).
    func updateVehicle(_ request: UpdateVehicleRequest) throws -> Vehicle
    /// Merges attributes into a vehicle's (`POST /v1/{name}:updateAttributes`).
    func updateVehicleAttributes(_ request: UpdateVehicleAttributesRequest) throws -> UpdateVehicleAttributesResponse
    /// Lists a provider's vehicles, filtered and paged (`GET /v1/{parent}/vehicles`).
    func listVehicles(_ request: ListVehiclesRequest) throws -> ListVehiclesResponse
    /// Finds vehicles that can serve a trip (`POST /v1/{parent}/vehicles:search`).
    func searchVehicles(_ request: SearchVehiclesRequest) throws -> SearchVehiclesResponse
    /// Deletes a vehicle without active trips (`DELETE /v1/{name}`).
    func deleteVehicle(_ request: DeleteVehicleRequest) throws
    /// Creates a trip (`POST /v1/{parent}/trips?tripId=ID`).
    func createTrip(_ request: CreateTripRequest) throws -> Trip
    /// Returns a trip (`GET /v1/{name}`).
    func getTrip(_ request: GetTripRequest) throws -> Trip
    /// Writes the fields named by the update mask (`PUT /v1/{name}?updateMask=…`).
    func updateTrip(_ request: UpdateTripRequest) throws -> Trip
    /// Finds a vehicle's trips (`POST /v1/{parent}/trips:search`).
    func searchTrips(_ request: SearchTripsRequest) throws -> SearchTripsResponse
    /// Deletes a trip that is not active on a vehicle (`DELETE /v1/{name}`).
    func deleteTrip(_ request: DeleteTripRequest) throws
    /// Reports a billable trip (`POST /v1/{name}:report`).
    func reportBillableTrip(_ request: ReportBillableTripRequest) throws
}
