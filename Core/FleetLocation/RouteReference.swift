import FleetErrors
import FleetGeo

/// A route given on the command line: a file (GPX, polyline or GeoJSON) or an inline encoded polyline.
public enum RouteReference: Sendable, Hashable, CustomStringConvertible {
    /// A route file.
    case file(String)
    /// An encoded polyline, written inline.
    case polyline(String)

    /// Parses `PATH` or `polyline:ENCODED`.
    /// - Throws: INVALID_ARGUMENT when nothing is given.
    public init(parsing text: String, original: String? = nil) throws {
        if text.hasPrefix("polyline:") {
            let encoded = String(text.dropFirst("polyline:".count))
            guard !encoded.isEmpty else {
                throw FleetError(.malformedLocationFile, detail: "'\(original ?? text)': the inline polyline is empty")
            }
            self = .polyline(encoded)
        } else {
            guard !text.isEmpty else {
                throw FleetError(.malformedLocationFile, detail: "'\(original ?? text)' names no route: give a file or polyline:ENCODED")
            }
            self = .file(text)
        }
    }

    /// The route's points.
    /// - Throws: INVALID_ARGUMENT (`malformedLocationFile`) when it cannot be read.
    public func points() throws -> [GeoPoint] {
        switch self {
        case .file(let path): try RouteFile.read(path: path)
        case .polyline(let encoded): try RouteFile.parsePolyline(encoded, source: "polyline:\(encoded.prefix(24))…")
        }
    }

    /// The reference as written.
    public var description: String {
        switch self {
        case .file(let path): path
        case .polyline(let encoded): "polyline:\(encoded)"
        }
    }
}
