import FleetAuth
import FleetErrors
import FleetInterface
import FleetModel
import Foundation
import HTTPServer

/// The position history extension (Fleet Engine has none): `GET /v1/providers/{p}/vehicles/{v}:history`,
/// `GET /v1/providers/{p}/trips/{t}:history` and `GET /v1/providers/{p}/deliveryVehicles/{d}:history`,
/// answered with a `HistoryPage`.
extension FleetService {
    /// The history call `request` makes, or nil when it is none.
    func handleHistory(_ request: HTTPRequest) -> HTTPReply? {
        guard request.path.hasSuffix(":history"), let segments = request.pathSegments, segments.count == 5,
              segments[0] == "v1", segments[1] == "providers", ["vehicles", "trips", "deliveryVehicles"].contains(segments[3]),
              segments[4].hasSuffix(":history") else { return nil }
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            guard request.method == "GET" else {
                throw FleetError(.methodNotAllowed, detail: "\(request.method) \(request.path): a history is GET")
            }
            guard let reader = engine as? any HistoryReading else {
                throw FleetError(.unknownPath, detail: "\(request.path): this server keeps no history")
            }
            let id = String(segments[4].dropLast(":history".count))
            let name = "providers/\(segments[2])/\(segments[3])/\(id)"
            let history = try HistoryRequest(name: name, queryItems: request.query.map { ($0.name, $0.value) })
            try authorizeHistory(of: try HistorySubject(parsing: name), header: request.headers["authorization"],
                                 address: request.remoteAddress)
            let page = try reader.history(history)
            metrics.request(method: nil, code: .ok, seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            return .response(.json(page.json.serializedBytes()))
        } catch {
            let error = Self.fleetError(error)
            metrics.request(method: nil, code: error.code, seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            return .response(Self.errorResponse(error))
        }
    }

    /// A vehicle's history is authorised as GetVehicle of that vehicle, a trip's as GetTrip of that
    /// trip (so a consumer token of the trip may read the trip's driven path), a delivery vehicle's as
    /// GetDeliveryVehicle of that delivery vehicle.
    private func authorizeHistory(of subject: HistorySubject, header: String?, address: @autoclosure () -> String) throws {
        let (method, resources): (FleetMethod, CallResources) = switch subject {
        case .vehicle(let name): (.getVehicle, CallResources(provider: name.provider, vehicleID: name.vehicleID))
        case .trip(let name): (.getTrip, CallResources(provider: name.provider, tripID: name.tripID))
        case .deliveryVehicle(let name):
            (.getDeliveryVehicle, CallResources(provider: name.provider, deliveryVehicleID: name.deliveryVehicleID))
        }
        let asked = resources.provider ?? ""
        if let provider, asked != provider {
            throw FleetError(.providerNotServed, detail: "this server serves '\(provider)', not '\(asked)'")
        }
        guard let verifier else {
            try limitUnverified(address: address())
            return
        }
        let token = try verifier.verify(authorizationHeader: header)
        try Authorizer.authorize(token: token, method: method, resources: resources)
        try requestGuard.limitRate(key: RequestGuard.callerKey(token: token, address: address()))
    }
}
