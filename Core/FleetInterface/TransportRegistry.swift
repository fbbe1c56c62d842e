import FleetSchemes

/// The transports this build can open (`memory`, `file:PATH`, `http://HOST:PORT`): the one scheme
/// registry, for `--transport` URLs, each opening a `Connection`. `Options` is what the executables know
/// besides the URL (a store URL, a token, an engine's settings); the default is `memory`.
public typealias TransportRegistry<Options> = SchemeRegistry<Connection, Options>

extension SchemeRegistry where Value == Connection {
    /// A registry of transport schemes; its URLs come from `--transport`, the default (an empty URL) is `memory`.
    public init(_ schemes: [Scheme] = []) {
        self.init(kind: "transport", defaultURL: "memory", schemes)
    }
}
