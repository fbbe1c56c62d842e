import FleetErrors
import FleetModel
import FleetStore

extension Engine: TripWatching {
    /// How often a watcher re-reads the store when nothing in this process signalled: other processes
    /// sharing the store (SQLite) cannot wake it.
    static let watchPollSeconds = 1.0

    public func watchTrip(_ request: GetTripRequest, cancellation: WatchCancellation, onUpdate: (Trip) throws -> Void) throws {
        let name = try TripName(parsing: request.name ?? "", field: "name")
        let tripKey = self.tripKey(name)
        cancellation.onCancel { [changes] in changes.wakeAll() }
        var vehicleKey: RecordKey?
        var last: Trip?
        while !cancellation.isCancelled {
            var watched = [(key: tripKey, generation: changes.generation(of: tripKey))]
            if let vehicleKey { watched.append((vehicleKey, changes.generation(of: vehicleKey))) }
            let trip = try getTrip(request)
            if last.map({ !$0.sameState(as: trip) }) ?? true {
                try onUpdate(trip)
                last = trip
            }
            if let id = trip.vehicleId, !id.isEmpty {
                let key = RecordKey(.vehicle, provider: name.provider, id: id)
                if key != vehicleKey {
                    vehicleKey = key
                    continue
                }
            }
            changes.wait(for: watched, timeout: Self.watchPollSeconds, stop: { cancellation.isCancelled })
        }
    }
}

extension Trip {
    /// Equal but for the time left to the next waypoint, which changes with the clock alone.
    func sameState(as other: Trip) -> Bool {
        var a = self, b = other
        a.remainingTimeToFirstWaypoint = nil
        b.remainingTimeToFirstWaypoint = nil
        return a == b
    }
}
