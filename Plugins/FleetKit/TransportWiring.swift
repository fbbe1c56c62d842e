import FleetEngine
import FleetInterface

extension Wiring {
    /// `memory`: an engine in this process over `options.store`, else the embedded default store.
    static let memoryTransport = TransportRegistry<ConnectionOptions>.Scheme(
        name: "memory", pattern: "memory", summary: "an engine in this process over --store", needsRest: false
    ) { _, options in
        let store = try openStore(options.store ?? defaultStoreURL())
        let engine = Engine(store: store, clock: options.clock, configuration: options.engine)
        return Connection(api: engine, close: { try store.close() })
    }
}
