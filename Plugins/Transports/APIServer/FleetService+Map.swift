import FleetAuth
import FleetErrors
import FleetInterface
import FleetModel
import FleetREST
import Foundation
import HTTPServer
import MapPages

extension FleetService {
    /// The answers that are not Fleet Engine calls of Google's API: the map pages and the vehicles
    /// `:watch` stream. Nil for every other request.
    func handleExtension(_ request: HTTPRequest) -> HTTPReply? {
        if MapSite.handles(path: request.path) {
            guard let map else { return .response(Self.errorResponse(FleetError(.unknownPath, detail: "\(request.path): the map is not served"))) }
            return .response(map.response(for: request) { access, token in try authorizePage(access, token: token) })
        }
        if request.path.hasSuffix("/vehicles:watch"), let segments = request.pathSegments,
           segments.count == 4, segments[0] == "v1", segments[1] == "providers", segments[3] == "vehicles:watch" {
            let start = DispatchTime.now().uptimeNanoseconds
            do {
                guard request.method == "GET" else {
                    throw FleetError(.methodNotAllowed, detail: "\(request.method) \(request.path): a watch is GET")
                }
                let provider = try ProviderName(parsing: "providers/\(segments[2])", field: "parent").provider
                if let unknown = request.query.first {
                    throw FleetError.invalidArgument("Unknown name \"\(unknown.name)\": Cannot bind query parameter", field: unknown.name)
                }
                let token = try authorizeFleet(provider: provider, header: request.headers["authorization"])
                return try watchVehicles(provider: provider, token: token)
            } catch {
                let error = Self.fleetError(error)
                metrics.request(method: nil, code: error.code, seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                return .response(Self.errorResponse(error))
            }
        }
        return handleHistory(request)
    }

    /// A page's token (`?token=`) is checked as the REST call behind the page would check it: the
    /// rider's page as GetTrip of its trip, the shipment's as GetTaskTrackingInfo of its tracking ID,
    /// the operator's as ListVehicles of the provider.
    func authorizePage(_ access: MapPageAccess, token: String?) throws {
        switch access {
        case .trip(let provider, let tripID):
            try checkProvider(provider)
            guard let verifier else { return }
            let verified = try verifier.verify(authorizationHeader: token.map { "Bearer \($0)" })
            try Authorizer.authorize(token: verified, method: .getTrip, resources: CallResources(provider: provider, tripID: tripID))
        case .tracking(let provider, let trackingID):
            try checkProvider(provider)
            let name = "providers/\(provider)/taskTrackingInfo/\(trackingID)"
            try authorize(.getTaskTrackingInfo(GetTaskTrackingInfoRequest(name: name)), authorization: token.map { "Bearer \($0)" })
        case .fleet(let provider):
            try authorizeFleet(provider: provider, header: token.map { "Bearer \($0)" })
        }
    }

    /// The fleet as a whole is for the roles that may list vehicles: server and fleet reader. Returns
    /// the verified token, nil when tokens are not checked.
    @discardableResult
    func authorizeFleet(provider: String, header: String?) throws -> VerifiedToken? {
        try checkProvider(provider)
        guard let verifier else { return nil }
        let verified = try verifier.verify(authorizationHeader: header)
        try Authorizer.authorize(token: verified, method: .listVehicles, resources: CallResources(provider: provider))
        return verified
    }

    private func checkProvider(_ asked: String) throws {
        if let provider, asked != provider {
            throw FleetError(.providerNotServed, detail: "this server serves '\(provider)', not '\(asked)'")
        }
    }

    /// `GET /v1/providers/{p}/vehicles:watch`: a `vehicle` event (the vehicle as GetVehicle returns it)
    /// for every vehicle at once, then `synced` (`{"vehicleIds":[…]}`, the whole fleet has been sent),
    /// then a `vehicle` event per change and a `deleted` event (`{"name":…}`) per deletion. Like the
    /// trip watch it holds no thread, and every watcher of a provider shares one read per change. It
    /// ends when `token` expires, as the trip watch does.
    func watchVehicles(provider: String, token: VerifiedToken?) throws -> HTTPReply {
        let stream = EventStream(headers: ["Cache-Control": "no-store"])
        let observation = try engine.observeVehicles(provider: provider) { changes, isInitial in
            for change in changes {
                if let json = change.json {
                    guard stream.send(event: "vehicle", data: json) else { return false }
                } else {
                    guard stream.send(event: "deleted", data: JSON.object(["name": .string(change.name)]).serialized()) else { return false }
                }
            }
            if isInitial {
                let ids = changes.compactMap { $0.json == nil ? nil : $0.name.split(separator: "/").last.map { JSON.string(String($0)) } }
                return stream.send(event: "synced", data: JSON.object(["vehicleIds": .array(ids)]).serialized())
            }
            return true
        }
        metrics.watches(1)
        stream.onClose { [metrics] _ in
            observation.cancel()
            metrics.watches(-1)
        }
        endAtExpiry(of: token, stream)
        return .eventStream(stream)
    }
}
