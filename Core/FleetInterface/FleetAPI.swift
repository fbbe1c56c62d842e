import FleetModel

/// The Fleet Engine v1 calls (TripService and VehicleService). Implemented by the engine and by every transport's client.
///
/// Every blocking call throws `FleetError` (the gRPC code, a message naming the field or resource, and
/// the catalogue cause). Deletes and ReportBillableTrip return nothing (`{}` over REST).
///
/// Every write also has a non-blocking form that returns at once and hands the outcome to
/// `completion`: a server answers writes this way so that none of its threads waits for a commit.
/// An implementation writes one half and adopts the protocol that gives it the other: a client over
/// the network writes the blocking calls and adopts `BlockingFleetAPI` (the blocking call on a
/// Dispatch queue); an implementation that commits without waiting (the engine) writes the
/// completion forms and adopts `NonBlockingFleetAPI`. `FleetAPI` itself gives neither a default, so
/// a form left out is a compile error, not two defaults calling each other forever.
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

    // MARK: Writes without waiting

    /// CreateVehicle without waiting: `completion` gets the vehicle or the error, on this thread or another.
    func createVehicle(_ request: CreateVehicleRequest, completion: @escaping @Sendable (Result<Vehicle, any Error>) -> Void)
    /// UpdateVehicle without waiting: the Driver SDK's location reports, the bulk of all writes.
    func updateVehicle(_ request: UpdateVehicleRequest, completion: @escaping @Sendable (Result<Vehicle, any Error>) -> Void)
    /// UpdateVehicleAttributes without waiting.
    func updateVehicleAttributes(_ request: UpdateVehicleAttributesRequest,
                                 completion: @escaping @Sendable (Result<UpdateVehicleAttributesResponse, any Error>) -> Void)
    /// DeleteVehicle without waiting.
    func deleteVehicle(_ request: DeleteVehicleRequest, completion: @escaping @Sendable (Result<Void, any Error>) -> Void)
    /// CreateTrip without waiting.
    func createTrip(_ request: CreateTripRequest, completion: @escaping @Sendable (Result<Trip, any Error>) -> Void)
    /// UpdateTrip without waiting.
    func updateTrip(_ request: UpdateTripRequest, completion: @escaping @Sendable (Result<Trip, any Error>) -> Void)
    /// DeleteTrip without waiting.
    func deleteTrip(_ request: DeleteTripRequest, completion: @escaping @Sendable (Result<Void, any Error>) -> Void)
    /// ReportBillableTrip without waiting.
    func reportBillableTrip(_ request: ReportBillableTripRequest, completion: @escaping @Sendable (Result<Void, any Error>) -> Void)
}
