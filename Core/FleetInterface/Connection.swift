/// An open connection to an engine: the API, and what to close when done. What a transport's
/// scheme opens (`TransportRegistry`).
public final class Connection: Sendable {
    /// The Fleet Engine calls.
    public let api: any FleetAPI
    /// The same calls with change streaming, when the transport supports it.
    public var watcher: (any TripWatching)? { api as? any TripWatching }
    /// The same calls with task and shipment change streaming, when the transport supports it.
    public var taskWatcher: (any TaskWatching)? { api as? any TaskWatching }
    private let closer: @Sendable () throws -> Void

    public init(api: any FleetAPI, close: @escaping @Sendable () throws -> Void = {}) {
        self.api = api
        self.closer = close
    }

    /// Releases the transport (and closes the store of an in-process engine).
    public func close() throws {
        try closer()
    }
}
