import FleetErrors
import FleetInterface
import FleetModel
import FleetStore

extension Engine: HistoryReading {
    /// A page of the position history from the store. A trip's name reads the points that served
    /// the trip, of the vehicle the trip names (of every vehicle when it names none); a delivery
    /// vehicle's name reads that delivery vehicle's points (not those of a rides vehicle of the same ID).
    /// - Throws: INVALID_ARGUMENT for a malformed name, a span that ends before it starts, a page
    ///   size out of range, a token this engine did not issue, or a `tripId` beside a trip's or a
    ///   delivery vehicle's name; NOT_FOUND for a missing trip.
    public func history(_ request: HistoryRequest) throws -> HistoryPage {
        var query = HistoryQuery(from: request.from.map(Self.microseconds) ?? .min, to: request.to.map(Self.microseconds) ?? .max)
        switch try HistorySubject(parsing: request.name) {
        case .trip(let name):
            if request.tripID != nil {
                throw FleetError.invalidArgument("tripId goes with a vehicle's name; a trip's name reads that trip already", field: "tripId")
            }
            let trip = try requireTrip(tripKey(name))
            query.kind = .vehicle
            query.provider = name.provider
            query.vehicleID = trip.vehicleID
            query.tripID = name.tripID
        case .vehicle(let name):
            query.kind = .vehicle
            query.provider = name.provider
            query.vehicleID = name.vehicleID
            query.tripID = request.tripID.flatMap { $0.isEmpty ? nil : $0 }
        case .deliveryVehicle(let name):
            if request.tripID != nil {
                throw FleetError.invalidArgument("tripId goes with a rides vehicle's name; a delivery vehicle serves no trips", field: "tripId")
            }
            query.kind = .deliveryVehicle
            query.provider = name.provider
            query.vehicleID = name.deliveryVehicleID
        }
        guard query.from < query.to else {
            throw FleetError.invalidArgument("the span ends before it starts: to must be later than from", field: "to")
        }
        let limit = request.pageSize ?? HistoryRequest.maximumPageSize
        guard (1...HistoryRequest.maximumPageSize).contains(limit) else {
            throw FleetError.invalidArgument("pageSize must be 1 to \(HistoryRequest.maximumPageSize), got \(limit)", field: "pageSize")
        }
        let cursor = try Self.historyCursor(request.pageToken)
        let points = try store.history(query, after: cursor, limit: limit + 1)
        let page = points.prefix(limit)
        let next = points.count > limit ? page.last.map { PageToken.encode("\($0.time).\($0.sequence)") } : nil
        return HistoryPage(points: page.map(Self.record), nextPageToken: next)
    }

    /// The point as the API returns it.
    static func record(_ point: HistoryPoint) -> PositionRecord {
        let (seconds, micros) = point.time.quotientAndRemainder(dividingBy: 1_000_000)
        return PositionRecord(vehicleID: point.vehicleID, time: Timestamp(seconds: seconds, nanos: Int32(micros) * 1_000),
                              latitude: point.latitude, longitude: point.longitude, accuracyMeters: point.accuracyMeters,
                              speedMetersPerSecond: point.speedMetersPerSecond, headingDegrees: point.headingDegrees,
                              vehicleState: point.vehicleState.map(VehicleState.init(name:)), tripIDs: point.tripIDs)
    }

    /// A timestamp in the history's microseconds since 1970.
    static func microseconds(_ time: Timestamp) -> Int64 {
        time.seconds * 1_000_000 + Int64(time.nanos / 1_000)
    }

    private static func historyCursor(_ token: String?) throws -> HistoryCursor? {
        guard let text = try PageToken.decode(token, field: "pageToken") else { return nil }
        let parts = text.split(separator: ".")
        guard parts.count == 2, let time = Int64(parts[0]), let sequence = Int64(parts[1]) else {
            throw FleetError.invalidArgument("pageToken '\(token ?? "")' is not a history token this server issued; pass nextPageToken from the previous response", field: "pageToken")
        }
        return HistoryCursor(time: time, sequence: sequence)
    }
}
