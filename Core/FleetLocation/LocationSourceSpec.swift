import FleetErrors

/// What `--source` names: gpsd, a file (or standard input) in one of the location formats, or a
/// simulated drive along a route or along the navigation's plan.
///
/// | written | meaning |
/// |---|---|
/// | `gpsd://HOST:PORT`, `gpsd://HOST`, `gpsd://` | gpsd's JSON protocol (default localhost:2947) |
/// | `nmea:PATH`, `nmea:-` | NMEA 0183 from a file, a device or standard input |
/// | `gpx:PATH`, `gpx:-` | a GPX track (or route) |
/// | `csv:PATH`, `csv:-` | CSV with a header naming the columns |
/// | `jsonl:PATH`, `jsonl:-` | JSON Lines, one location a line |
/// | `simulate:PATH`, `simulate:polyline:ENCODED` | drive a route file or an inline encoded polyline |
/// | `simulate:plan` | drive each leg the navigation plans, to the next waypoint or stop (`./plan` is a file) |
public enum LocationSourceSpec: Sendable, Hashable, CustomStringConvertible {
    /// gpsd at a host and port.
    case gpsd(host: String, port: Int)
    /// A file, a device or standard input (`-`) in a location format.
    case file(LocationFileFormat, path: String)
    /// A simulated drive along a route.
    case simulate(RouteReference)
    /// A simulated drive along the legs the navigation plans (`PlannedDriveFeed`).
    case simulatePlan

    /// gpsd's port when the URL gives none.
    public static let defaultGPSDPort = 2947

    /// The forms `--source` accepts, for messages.
    public static let usage = "gpsd://HOST:PORT, nmea:PATH, nmea:-, gpx:PATH, csv:PATH, jsonl:PATH, jsonl:-, simulate:ROUTE or simulate:plan"

    /// Parses a `--source` value.
    /// - Throws: INVALID_ARGUMENT (`unknownLocationSource`) saying what is wrong and what is accepted.
    public init(parsing text: String) throws {
        if text.hasPrefix("gpsd://") {
            let authority = String(text.dropFirst("gpsd://".count).prefix { $0 != "/" })
            let (host, port) = try Self.hostAndPort(authority, original: text)
            self = .gpsd(host: host, port: port)
            return
        }
        guard let colon = text.firstIndex(of: ":") else {
            throw FleetError(.unknownLocationSource, detail: "'\(text)' has no kind; use \(Self.usage)", field: "source")
        }
        let kind = String(text[..<colon]).lowercased()
        let rest = String(text[text.index(after: colon)...])
        if kind == "simulate" {
            self = rest == "plan" ? .simulatePlan : .simulate(try RouteReference(parsing: rest, original: text))
            return
        }
        guard let format = LocationFileFormat(rawValue: kind) else {
            throw FleetError(.unknownLocationSource, detail: "'\(kind):' is not a kind of source; use \(Self.usage)", field: "source")
        }
        guard !rest.isEmpty else {
            throw FleetError(.unknownLocationSource, detail: "'\(text)' names no file; give a path or - for standard input", field: "source")
        }
        self = .file(format, path: rest)
    }

    private static func hostAndPort(_ authority: String, original: String) throws -> (String, Int) {
        if authority.isEmpty { return ("localhost", defaultGPSDPort) }
        var host = authority
        var portText: String?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw FleetError(.unknownLocationSource, detail: "'\(original)': unclosed '[' in the IPv6 address", field: "source")
            }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { portText = String(after.dropFirst()) } else if !after.isEmpty {
                throw FleetError(.unknownLocationSource, detail: "'\(original)': expected ':PORT' after the address", field: "source")
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            portText = String(authority[authority.index(after: colon)...])
        }
        var port = defaultGPSDPort
        if let portText {
            guard let parsed = Int(portText), (1...65_535).contains(parsed) else {
                throw FleetError(.unknownLocationSource, detail: "'\(original)': port '\(portText)' is not 1-65535", field: "source")
            }
            port = parsed
        }
        return (host.isEmpty ? "localhost" : host, port)
    }

    /// Whether the source ends by itself (a file, standard input, a simulated drive along a route); gpsd
    /// and a drive along the navigation's plan never do.
    public var isFinite: Bool {
        switch self {
        case .gpsd, .simulatePlan: false
        case .file, .simulate: true
        }
    }

    /// The source as written on the command line.
    public var description: String {
        switch self {
        case .gpsd(let host, let port): "gpsd://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        case .file(let format, let path): "\(format.rawValue):\(path)"
        case .simulate(let route): "simulate:\(route)"
        case .simulatePlan: "simulate:plan"
        }
    }
}
