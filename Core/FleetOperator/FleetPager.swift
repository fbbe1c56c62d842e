import FleetCLI
import FleetInterface
import FleetModel

/// Follows `nextPageToken` through ListVehicles, SearchTrips, ListDeliveryVehicles and ListTasks,
/// handing each page over as it arrives and drawing progress once a list takes more than one page.
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
        try follow(request, limit: limit, page: page, fetch: api.listVehicles)
    }

    /// Every trip `request` finds, page by page, like `vehicles(_:limit:page:)`.
    public func trips(_ request: SearchTripsRequest, limit: Int? = nil, page: ([Trip]) throws -> Void) throws {
        try follow(request, limit: limit, page: page, fetch: api.searchTrips)
    }

    /// Every delivery vehicle `request` matches, page by page, like `vehicles(_:limit:page:)`.
    public func deliveryVehicles(_ request: ListDeliveryVehiclesRequest, limit: Int? = nil,
                                 page: ([DeliveryVehicle]) throws -> Void) throws {
        try follow(request, limit: limit, page: page, fetch: api.listDeliveryVehicles)
    }

    /// Every task `request` matches, page by page, like `vehicles(_:limit:page:)`.
    public func tasks(_ request: ListTasksRequest, limit: Int? = nil, page: ([DeliveryTask]) throws -> Void) throws {
        try follow(request, limit: limit, page: page, fetch: api.listTasks)
    }

    /// Calls `fetch` with `request`, then again with each answer's page token, until the answers end or
    /// `limit` items were handed to `page`. Progress counts towards the answer's total size (at most
    /// `limit`), or towards `limit` when the answer gives none.
    private func follow<Request: PageTokenRequest, Response: PageOfItems>(
        _ request: Request, limit: Int?, page: ([Response.Item]) throws -> Void, fetch: (Request) throws -> Response
    ) throws {
        var request = request
        var seen = 0
        defer { progress?.finish() }
        while true {
            let response = try fetch(request)
            var items = response.items
            if let limit { items = Array(items.prefix(max(0, limit - seen))) }
            try page(items)
            seen += items.count
            let next = response.nextPageToken.flatMap { $0.isEmpty ? nil : $0 }
            if let limit, seen >= limit { return }
            guard let next else { return }
            let total = response.totalSize.map { size in limit.map { min(Int(size), $0) } ?? Int(size) } ?? limit
            progress?.update(done: seen, total: total)
            request.pageToken = next
        }
    }
}

/// A list request that carries a page token (what `FleetPager` sets to ask for the next page).
protocol PageTokenRequest {
    /// The token of the page to answer.
    var pageToken: String? { get set }
}

extension ListVehiclesRequest: PageTokenRequest {}
extension SearchTripsRequest: PageTokenRequest {}
extension ListDeliveryVehiclesRequest: PageTokenRequest {}
extension ListTasksRequest: PageTokenRequest {}

/// One answer of a list call: a page of items, the token of the next page, and the total when known.
protocol PageOfItems {
    /// What the list holds.
    associatedtype Item
    /// This page's items.
    var items: [Item] { get }
    /// The token of the next page; nil or empty at the end.
    var nextPageToken: String? { get }
    /// How many items the whole list holds, when the server says.
    var totalSize: Int64? { get }
}

extension ListVehiclesResponse: PageOfItems {
    var items: [Vehicle] { vehicles }
}

extension SearchTripsResponse: PageOfItems {
    var items: [Trip] { trips }
    var totalSize: Int64? { nil }
}

extension ListDeliveryVehiclesResponse: PageOfItems {
    var items: [DeliveryVehicle] { deliveryVehicles }
}

extension ListTasksResponse: PageOfItems {
    var items: [DeliveryTask] { tasks }
}
