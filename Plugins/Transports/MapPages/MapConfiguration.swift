import FleetErrors
import Foundation

/// How the map pages (`/map`, `/map/trips/{tripId}`, `/map/tracking/{trackingId}`) are served.
public struct MapConfiguration: Sendable {
    /// Where Debian's `libjs-leaflet` puts Leaflet (`leaflet.js`, `leaflet.css`, `images/`).
    public static let debianLeafletDirectory = "/usr/share/javascript/leaflet"
    /// A vehicle whose last location is older than this is shown as stale. Three missed reports at
    /// the Driver SDK's (and `driver-report`'s) usual 5–10 s interval; a car stopped at a light still
    /// reports, so a stale flag means the phone stopped talking, not that the car stopped moving.
    public static let defaultStaleAfterSeconds = 30.0

    /// Leaflet's folder, served under `/map/leaflet/`.
    public var leafletDirectory = MapConfiguration.debianLeafletDirectory
    /// Whether `leafletDirectory` was given explicitly (then a missing Leaflet stops the server).
    public var leafletDirectoryGiven = false
    /// A tile URL template (`https://tile.example.org/{z}/{x}/{y}.png`) for the base layer.
    public var tilesURL: String?
    /// The tile server's attribution, shown in the map's corner.
    public var tilesAttribution: String?
    /// A GeoJSON file of roads drawn as the base layer when no tile server is configured.
    public var roadsFile: String?
    /// Where a page fetches a new token when its own expires (`--map-token-url`): an http(s) URL or a
    /// path on this server, with `{provider}`, `{trip}` (the rider's page) and `{tracking}` (the
    /// shipment's page) filled in. The page asks
    /// with the browser's credentials for the app's origin (its cookies) and reads the token from the
    /// JSON answer's `token` member, as `consumer-follow --token-url` does. Nil: a page whose token
    /// expires stops and asks the rider for a new link.
    public var tokenURL: String?
    /// Age past which a vehicle's last location is flagged stale.
    public var staleAfterSeconds = MapConfiguration.defaultStaleAfterSeconds

    public init() {}

    /// Where the pages may load images from besides themselves, for the Content-Security-Policy:
    /// the tile server's origin (`https://tile.example.org`; a `{s}` subdomain becomes `*`), nil for
    /// none or tiles served by this server.
    public var tilesOrigin: String? { tilesURL.flatMap(Self.origin(of:)) }

    /// Where the pages may call besides their own server, for the Content-Security-Policy: the
    /// origin of `tokenURL`, nil for none or a path on this server.
    public var tokenOrigin: String? { tokenURL.flatMap(Self.origin(of:)) }

    /// `https://host:port` of an absolute URL (template), nil for a path.
    static func origin(of url: String) -> String? {
        guard let scheme = url.range(of: "://") else { return nil }
        let host = url[scheme.upperBound...].prefix { $0 != "/" }.replacingOccurrences(of: "{s}", with: "*")
        guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || ".-:*[]".contains($0) }) else { return nil }
        return String(url[..<scheme.upperBound]) + host
    }

    /// The script the pages load: the minified Leaflet when the folder has it (Debian's does:
    /// 140 KiB instead of 400), else `leaflet.js`.
    public var leafletScript: String {
        FileManager.default.fileExists(atPath: (leafletDirectory as NSString).appendingPathComponent("leaflet.min.js")) ? "leaflet.min.js" : "leaflet.js"
    }

    /// Checks the configuration before the server starts: a tile template with `{z}`, `{x}`, `{y}`,
    /// a readable roads file holding a GeoJSON object, a positive stale threshold, and Leaflet where
    /// it was said to be. Returns a warning to print when the default Leaflet folder is missing.
    public func validate() throws -> String? {
        if let tilesURL {
            guard ["{z}", "{x}", "{y}"].allSatisfy(tilesURL.contains),
                  tilesURL.hasPrefix("http://") || tilesURL.hasPrefix("https://") || tilesURL.hasPrefix("/") else {
                throw FleetError.invalidArgument("--tiles '\(tilesURL)' must be an http(s) URL template with {z}, {x} and {y}, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png", field: "tiles")
            }
        }
        if let tokenURL {
            let unknownPlaceholder = tokenURL.replacingOccurrences(of: "{provider}", with: "").replacingOccurrences(of: "{trip}", with: "")
                .replacingOccurrences(of: "{tracking}", with: "").contains("{")
            guard tokenURL.hasPrefix("http://") || tokenURL.hasPrefix("https://") || tokenURL.hasPrefix("/"), !unknownPlaceholder else {
                throw FleetError.invalidArgument("--map-token-url '\(tokenURL)' must be an http(s) URL or a path, with {provider}, {trip} and {tracking} as its only placeholders", field: "map-token-url")
            }
        }
        if let roadsFile {
            guard let data = FileManager.default.contents(atPath: roadsFile) else {
                throw FleetError.invalidArgument("--map-roads \(roadsFile): cannot read the file", field: "map-roads")
            }
            guard data.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) == UInt8(ascii: "{") else {
                throw FleetError.invalidArgument("--map-roads \(roadsFile): not a GeoJSON object (it must start with '{')", field: "map-roads")
            }
        }
        guard staleAfterSeconds > 0, staleAfterSeconds.isFinite else {
            throw FleetError.invalidArgument("--stale-after must be a positive number of seconds", field: "stale-after")
        }
        let script = (leafletDirectory as NSString).appendingPathComponent("leaflet.js")
        if !FileManager.default.fileExists(atPath: script) {
            let message = "--leaflet-dir \(leafletDirectory) holds no leaflet.js: install Debian's libjs-leaflet or name the folder holding Leaflet 1.x"
            if leafletDirectoryGiven { throw FleetError.invalidArgument(message, field: "leaflet-dir") }
            return "the map pages cannot load Leaflet: \(message)"
        }
        return nil
    }
}
