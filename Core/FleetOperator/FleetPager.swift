import FleetCLI
import FleetInterface
import FleetModel

/// Follows `nextPageToken` through ListVehicles and SearchTrips, handing each page over as it
/// arrives and drawing progress once a list takes more than one page.
public struct FleetPager {
    /// The API to page through.
    public let api: any FleetAPI
    /// Where progress goes (drawn only on a terminal).
    public let progress: ProgressReporter?

    /// A pager over `api`, drawing `progress` when given.
    public init(api: any FleetAPI, progress: ProgressReporter?) {
        self.api = api
        self.progress = progress
    }

    /// Every vehicle `request` matches (its page token is followed until the end, or until `limit`
    /// vehicles were handed over). `page` gets each page in order.
    public func vehicles(_ request: ListVehiclesRequest, limit: Int? = nil, page: ([Vehicle]) throws -> Void) throws {
        var request = request
        var seen = 0
        defer { progress?.finish() }
        while true {
            let response = try api.listVehicles(request)
            var vehicles = response.vehicles
            if let limit { vehicles = Array(vehicles.prefix(max(0, limit - seen))) }
            try page(vehicles)
            seen += vehicles.count
            let next = response.nextPageToken.flatMap { $0.isEmpty ? nil : $0 }
            if let limit, seen >= limit { return }
            guard let next else { return }
            let total = response.totalSize.map { size in limit.map { min(Int(size), $0) } ?? Int(size) }
            progress?.update(done: seen, total: total)
            request.pageToken = next
        }
    }

    /// Every trip `request` finds, page by page, like `vehicles(_:limit:page:)`.
    public func trips(_ request: SearchTripsRequest, limit: Int? = nil, page: ([Trip]) throws -> Void) throws {
        var request = request
        var seen = 0
        defer { progress?.finish() }
        while true {
            let response = try api.searchTrips(request)
            var trips = response.trips
            if let limit { trips = Array(trips.prefix(max(0, limit - seen))) }
            try page(trips)
            seen += trips.count
            let next = response.nextPageToken.flatMap { $0.isEmpty ? nil : $0 }
            if let limit, seen >= limit { return }
            guard let next else { return }
            progress?.update(done: seen, total: limit)
            request.pageToken = next
        }
    }
}
