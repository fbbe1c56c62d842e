import FleetErrors
import FleetSchemes

/// The routers this build can open (`straight`, `routino:DIR`): the one scheme registry, for `--router`
/// URLs. Executables take the URL from `--router`, else `FLEET_ROUTER`, else the default, `straight`.
public typealias RouterRegistry = SchemeRegistry<any Router, Void>

extension SchemeRegistry where Value == any Router, Options == Void {
    /// A registry of router schemes; its URLs come from `--router`, the default is `straight`.
    public init(_ schemes: [Scheme] = []) {
        self.init(kind: "router", defaultURL: Self.defaultRouterURL, schemes)
    }

    /// The environment variable that names the router when no flag does.
    public static var environmentVariable: String { "FLEET_ROUTER" }

    /// The router used when neither the flag nor the environment names one: great-circle estimates,
    /// which need no map.
    public static var defaultRouterURL: String { "straight" }

    /// The URL to open: the flag's value, else `FLEET_ROUTER`, else the default; empty values count as absent.
    public static func chosenURL(flag: String?, environment: [String: String]) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let value = environment[environmentVariable], !value.isEmpty { return value }
        return defaultRouterURL
    }

    /// Opens the router a URL names.
    /// - Throws: INVALID_ARGUMENT (`UNKNOWN_SCHEME`, field `router`) listing the schemes; the router's own errors.
    public func openRouter(_ url: String) throws(FleetError) -> any Router {
        do {
            return try open(url)
        } catch let error as FleetError {
            throw error
        } catch {
            throw FleetError(.internalFault, detail: "opening router '\(url)': \(error)")
        }
    }
}

extension SchemeRegistry.Scheme where Value == any Router, Options == Void {
    /// A router's scheme: `name`, or `name:PATHNAME` when it `needsPath`; `open` gets the path.
    public init(name: String, summary: String, needsPath: Bool, pathName: String = "PATH",
                open: @escaping @Sendable (_ path: String) throws(FleetError) -> any Router) {
        self.init(name: name, pattern: needsPath ? "\(name):\(pathName)" : name, summary: summary, needsRest: needsPath) { url, _ in
            try open(url.rest)
        }
    }
}
