import FleetAuth
import FleetErrors
import FleetInterface

/// The checks every transport runs on a decoded call before the engine sees it, so that REST and gRPC
/// admit exactly the same calls: the provider served, the bearer token and its role, and the rate limit.
extension FleetService {
    /// Counts a call against its client address's rate while tokens are not checked (before the call is
    /// decoded, so a client flooding with malformed requests is limited too). `address` is read only
    /// with a rate limit on: reading a gRPC peer's is a copy from the core.
    func limitUnverified(address: @autoclosure () -> String) throws {
        if verifier == nil { try requestGuard.limitRate(key: RequestGuard.callerKey(token: nil, address: address())) }
    }

    /// Admits a decoded call: the provider check and, with tokens on, the token from `authorization`
    /// (`Bearer …`, from an HTTP header or gRPC metadata), its role for the call, and the token's rate.
    func admit(_ call: FleetCall, authorization: String?, address: @autoclosure () -> String) throws {
        let token = try authorize(call, authorization: authorization)
        if verifier != nil { try requestGuard.limitRate(key: RequestGuard.callerKey(token: token, address: address())) }
    }

    /// Checks the call's provider and token; returns the verified token, nil when tokens are not checked.
    @discardableResult
    func authorize(_ call: FleetCall, authorization: String?) throws -> VerifiedToken? {
        guard provider != nil || verifier != nil else { return nil }  // an open server for every provider
        let target = call.resources
        if let provider, let asked = target.provider, asked != provider {
            throw FleetError(.providerNotServed, detail: "this server serves '\(provider)', not '\(asked)'")
        }
        guard let verifier else { return nil }
        let token = try verifier.verify(authorizationHeader: authorization)
        try Authorizer.authorize(token: token, method: call.method, provider: target.provider ?? "",
                                 vehicleID: target.vehicleID, tripID: target.tripID)
        if case .updateVehicle(let r) = call {
            try Authorizer.authorizeVehicleUpdate(token: token, paths: r.updateMask?.paths ?? [])
        }
        return token
    }
}
