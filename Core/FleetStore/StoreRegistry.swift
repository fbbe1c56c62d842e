import FleetErrors
import FleetSchemes

/// How a store is opened.
public struct StoreOptions: Sendable, Hashable {
    /// Acknowledge a commit only once it is on disk (fsync). Off for benchmarks and throwaway data.
    public var durable: Bool
    /// The URL's other options (`?pool=8`), for schemes that declare them in `Scheme.options`.
    public var settings: [String: String]

    public init(durable: Bool = true, settings: [String: String] = [:]) {
        self.durable = durable
        self.settings = settings
    }
}

/// The stores this build can open (`memory`, `file:PATH`, `sqlite:PATH`, `postgres://…`): the one scheme
/// registry, for `--store` URLs. A URL may end in `?durable=false` and the options its scheme declares
/// (`postgres://fleet@db:5432/fleet?pool=16`).
public typealias StoreRegistry = SchemeRegistry<any Store, Void>

extension SchemeRegistry where Value == any Store, Options == Void {
    /// A registry of store schemes; its URLs come from `--store`.
    public init(_ schemes: [Scheme] = []) {
        self.init(kind: "store", schemes)
    }

    /// `url` as logs and messages may show it, a password replaced by `***` (`SchemeURL.redacted`).
    public static func redacted(_ url: String) -> String {
        SchemeURL.redacted(url)
    }
}

extension SchemeRegistry.Scheme where Value == any Store, Options == Void {
    /// A store's scheme: `name`, or `name:PATH` when it `needsPath`; `options` are the URL options it
    /// reads besides `durable` (they arrive in `StoreOptions.settings`); `open` gets the path.
    public init(name: String, summary: String, needsPath: Bool, options: [String] = [],
                check: (@Sendable (_ url: SchemeURL) throws -> Void)? = nil,
                open: @escaping @Sendable (_ path: String, _ options: StoreOptions) throws -> any Store) {
        self.init(name: name, pattern: needsPath ? "\(name):PATH" : name, summary: summary, needsRest: needsPath,
                  options: ["durable"] + options, check: check) { url, _ in
            try open(url.rest, try StoreOptions(url))
        }
    }
}

extension StoreOptions {
    /// The options a store URL gives: `durable` (`true`, `false`, `1`, `0`) and the scheme's own settings.
    /// - Throws: INVALID_ARGUMENT naming `store` for another `durable` value.
    public init(_ url: SchemeURL) throws {
        self.init()
        for (key, value) in url.options {
            guard key == "durable" else {
                settings[key] = value
                continue
            }
            switch value {
            case "true", "1": durable = true
            case "false", "0": durable = false
            default: throw FleetError.invalidArgument("durable=\(value) in '\(SchemeURL.redacted(url.text))': write durable=true or durable=false", field: url.kind)
            }
        }
    }
}
