import FleetErrors
import FleetModel
import Foundation
import HTTPServer
import HTTPCore

/// What a map page shows, and so what its token must allow.
public enum MapPageAccess: Sendable, Hashable {
    /// The rider's page of one trip: the token must allow GetTrip on it.
    case trip(provider: String, tripID: String)
    /// The page of one shipment for the person waiting for it: the token must allow
    /// GetTaskTrackingInfo of its tracking ID.
    case tracking(provider: String, trackingID: String)
    /// The operator's page of a provider's fleet: the token must allow ListVehicles.
    case fleet(provider: String)
}

/// The map pages: the rider's `/map/trips/{tripId}`, the shipment's `/map/tracking/{trackingId}` and
/// the operator's `/map`, their scripts and
/// style (built into the binary, so a checkout's `.build/debug/fleet-admin` and an installed one
/// serve the same pages with nothing to install beside them), Leaflet from the system's folder,
/// and the roads file of the offline base layer.
///
/// The pages read everything live through the REST API (`:watch` streams, GetTrip, GetVehicle,
/// SearchTrips, GetTaskTrackingInfo, ListDeliveryVehicles) with the page's `?token=` as a bearer
/// token, so a page can do nothing its token could not do over REST.
public final class MapSite: Sendable {
    public let configuration: MapConfiguration
    /// The provider the server is limited to, if any; otherwise pages take `?provider=`.
    let provider: String?

    public init(configuration: MapConfiguration, provider: String?) {
        self.configuration = configuration
        self.provider = provider
    }

    /// Whether `path` is one of the map's (`/map` and below).
    public static func handles(path: String) -> Bool {
        path == "/map" || path.hasPrefix("/map/")
    }

    /// Answers a request for a map path. `authorize` checks the page's token (nil when none was
    /// given) as the REST call behind the page would, throwing the same error.
    public func response(for request: HTTPRequest,
                         authorize: (MapPageAccess, _ token: String?) throws -> Void) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return errorPage(FleetError(.methodNotAllowed, detail: "\(request.method) \(request.path): the map pages answer GET only"), title: "Map")
        }
        guard let segments = request.pathSegments, segments.first == "map" else {
            return errorPage(FleetError(.unknownPath, detail: request.path), title: "Map")
        }
        let rest = Array(segments.dropFirst())
        switch rest.first {
        case nil, "":
            return page(.fleet(provider: ""), request: request, authorize: authorize)
        case "trips" where rest.count == 2 && !rest[1].isEmpty:
            return page(.trip(provider: "", tripID: rest[1]), request: request, authorize: authorize)
        case "tracking" where rest.count == 2 && !rest[1].isEmpty:
            return page(.tracking(provider: "", trackingID: rest[1]), request: request, authorize: authorize)
        case "assets" where rest.count == 2:
            return asset(rest[1])
        case "leaflet":
            return leafletFile(Array(rest.dropFirst()), acceptsGzip: request.headers["accept-encoding"]?.contains("gzip") == true)
        case "roads.geojson" where rest.count == 1:
            return roads()
        default:
            return errorPage(FleetError(.unknownPath, detail: "\(request.path): the map serves /map, /map/trips/{tripId} and /map/tracking/{trackingId}"), title: "Map")
        }
    }

    // MARK: Pages

    private func page(_ kind: MapPageAccess, request: HTTPRequest,
                      authorize: (MapPageAccess, String?) throws -> Void) -> HTTPResponse {
        let title = switch kind {
        case .trip: "Your trip"
        case .tracking: "Your delivery"
        case .fleet: "Fleet map"
        }
        do {
            guard let provider = provider ?? request.queryValue("provider").flatMap({ $0.isEmpty ? nil : $0 }) else {
                throw FleetError.invalidArgument("the page needs ?provider=ID: this server serves every provider (or start it with --provider)", field: "provider")
            }
            _ = try ProviderName(parsing: "providers/\(provider)", field: "provider")
            let access: MapPageAccess = switch kind {
            case .trip(_, let tripID): .trip(provider: provider, tripID: try TripName(provider: provider, tripID: tripID).tripID)
            case .tracking(_, let trackingID):
                .tracking(provider: provider, trackingID: try TaskTrackingInfoName(provider: provider, trackingID: trackingID).trackingID)
            case .fleet: .fleet(provider: provider)
            }
            let token = request.queryValue("token").flatMap { $0.isEmpty ? nil : $0 }
            try authorize(access, token)
            return PageTemplate.render(title: title, access: access, configuration: configJSON(access), error: nil,
                                       leafletScript: configuration.leafletScript, tilesOrigin: configuration.tilesOrigin,
                                       tokenOrigin: configuration.tokenOrigin)
        } catch {
            return errorPage(error as? FleetError ?? FleetError(.internalFault, detail: "\(error)"), title: title)
        }
    }

    /// The page with the error in words, with the error's HTTP status: never a blank page.
    func errorPage(_ error: FleetError, title: String) -> HTTPResponse {
        PageTemplate.render(title: title, access: nil, configuration: nil, error: error)
    }

    /// What the page's script needs, as JSON inside the page.
    func configJSON(_ access: MapPageAccess) -> String {
        var object: [(String, JSON)] = []
        let escaped = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text }
        // The token URL with the page's IDs filled in, the placeholders of other pages' IDs empty.
        func tokenURL(provider: String, trip: String = "", tracking: String = "") -> JSON {
            configuration.tokenURL.map { url in
                .string(url.replacingOccurrences(of: "{provider}", with: escaped(provider)).replacingOccurrences(of: "{trip}", with: escaped(trip))
                    .replacingOccurrences(of: "{tracking}", with: escaped(tracking)))
            } ?? .null
        }
        switch access {
        case .trip(let provider, let tripID):
            object += [("kind", .string("trip")), ("provider", .string(provider)), ("tripId", .string(tripID)),
                       ("tokenUrl", tokenURL(provider: provider, trip: tripID))]
        case .tracking(let provider, let trackingID):
            object += [("kind", .string("tracking")), ("provider", .string(provider)), ("trackingId", .string(trackingID)),
                       ("tokenUrl", tokenURL(provider: provider, tracking: trackingID))]
        case .fleet(let provider):
            object += [("kind", .string("fleet")), ("provider", .string(provider)), ("tokenUrl", tokenURL(provider: provider))]
        }
        object += [
            ("staleAfterSeconds", .number(configuration.staleAfterSeconds)),
            ("serverTimeMillis", .number((Date().timeIntervalSince1970 * 1000).rounded())),
            ("tiles", configuration.tilesURL.map(JSON.string) ?? .null),
            ("tilesAttribution", configuration.tilesAttribution.map(JSON.string) ?? .null),
            ("roads", configuration.roadsFile == nil ? .null : .string("/map/roads.geojson")),
            ("roadsAttribution", .string("© OpenStreetMap contributors")),
            ("errors", .object(JSONObject(Self.pageCauses.map { cause in
                (cause.id, JSON.object(JSONObject([("summary", .string(cause.summary)), ("advice", .string(cause.riderAdvice)),
                                                    ("remedy", .string(cause.remedy)), ("code", .string(cause.code.name))])))
            }))),
            ("codes", .object(JSONObject(GRPCCode.allCases.filter { $0 != .ok }.map { code in
                let fallback = ErrorCause(id: code.name, code: code, summary: code.name, remedy: "")
                return (code.name, JSON.string(fallback.riderAdvice))
            }))),
        ]
        return JSON.object(JSONObject(object)).serialized()
    }

    /// The causes a page may meet, with their words: the token's, a missing trip, vehicle or shipment, a rate
    /// limit, a lost server.
    static let pageCauses: [ErrorCause] = ErrorCatalogue.causes.filter { cause in
        [.unauthenticated, .permissionDenied, .notFound, .resourceExhausted, .unavailable].contains(cause.code)
    }

    // MARK: Files

    private func asset(_ name: String) -> HTTPResponse {
        guard let (bytes, type) = PageAssets.file(named: name) else {
            return errorPage(FleetError(.unknownPath, detail: "/map/assets/\(name)"), title: "Map")
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", type), ("Cache-Control", "no-cache")], body: bytes)
    }

    /// A file of Leaflet's folder (`leaflet.js`, `leaflet.css`, `images/marker-icon.png`…): plain
    /// names only, at most one folder deep, so nothing outside the folder can be named.
    ///
    /// Debian ships each file also gzipped (`leaflet.min.js.gz`): a browser that accepts gzip gets
    /// that, a fifth of the size.
    private func leafletFile(_ parts: [String], acceptsGzip: Bool) -> HTTPResponse {
        let plain = parts.count >= 1 && parts.count <= 2 && parts.allSatisfy { part in
            guard let first = part.first, first.isLetter || first.isNumber else { return false }
            return part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
        }
        let path = (configuration.leafletDirectory as NSString).appendingPathComponent(parts.joined(separator: "/"))
        var isDirectory: ObjCBool = false
        guard plain, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
              let data = FileManager.default.contents(atPath: path) else {
            return errorPage(FleetError(.resourceNotFound, detail: "/map/leaflet/\(parts.joined(separator: "/")) is not in \(configuration.leafletDirectory)"), title: "Map")
        }
        var headers: HTTPHeaders = [("Content-Type", PageAssets.contentType(of: path)), ("Cache-Control", "public, max-age=86400"),
                                    ("Vary", "Accept-Encoding")]
        if acceptsGzip, let gzipped = FileManager.default.contents(atPath: path + ".gz") {
            headers.set(name: "Content-Encoding", value: "gzip")
            return HTTPResponse(status: 200, headers: headers, body: Array(gzipped))
        }
        return HTTPResponse(status: 200, headers: headers, body: Array(data))
    }

    private func roads() -> HTTPResponse {
        guard let file = configuration.roadsFile, let data = FileManager.default.contents(atPath: file) else {
            return HTTPResponse.json(Array(#"{"type":"FeatureCollection","features":[]}"#.utf8), status: configuration.roadsFile == nil ? 404 : 503)
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/geo+json"), ("Cache-Control", "public, max-age=3600")], body: Array(data))
    }
}
