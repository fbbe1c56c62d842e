import Dispatch
import FleetAuth
import FleetErrors
import FleetInterface
import FleetREST
import HTTPServer
import Synchronization

/// The checks every transport runs on a decoded call before the engine sees it, so that REST and gRPC
/// admit exactly the same calls: the provider served, the bearer token and its role, and the rate limit.
extension FleetService {
    /// Counts a call against its client address's rate while tokens are not checked (before the call is
    /// decoded, so a client flooding with malformed requests is limited too). `address` is read only
    /// with a rate limit on: a gRPC peer's is cut out of the core's peer name each time it is read.
    func limitUnverified(address: @autoclosure () -> String) throws {
        if verifier == nil { try requestGuard.limitRate(key: RequestGuard.callerKey(token: nil, address: address())) }
    }

    /// Admits a decoded call: the provider check and, with tokens on, the token from `authorization`
    /// (`Bearer …`, from an HTTP header or gRPC metadata), its role for the call, and the token's rate.
    /// Returns the call to run, narrowed to what the token's role may see (`narrowed(_:for:)`), and the
    /// verified token (nil when tokens are not checked).
    func admit(_ call: FleetCall, authorization: String?, address: @autoclosure () -> String) throws -> (call: FleetCall, token: VerifiedToken?) {
        let token = try authorize(call, authorization: authorization)
        if verifier != nil { try requestGuard.limitRate(key: RequestGuard.callerKey(token: token, address: address())) }
        return (Self.narrowed(call, for: token), token)
    }

    /// Ends `stream` when `token` stops being accepted (its `exp` plus the verifier's clock skew), with
    /// an `error` event of UNAUTHENTICATED `JWT_EXPIRED`: a watch lives no longer than the token that
    /// opened it, and the client fetches a new token and opens the watch again. Holds no thread while
    /// it waits, and lets go of the stream when it closes first.
    func endAtExpiry(of token: VerifiedToken?, _ stream: EventStream) {
        guard let verifier, let expiresAt = token?.expiresAt else { return }
        let deadline = expiresAt + verifier.clockSkew
        // The stream, until it closes: the wait then holds nothing but this empty box.
        let open = Mutex<EventStream?>(stream)
        stream.onClose { _ in open.withLock { $0 = nil } }
        let expiry: @Sendable () -> Void = {
            guard let stream = open.withLock({ $0.take() }) else { return }
            let error = FleetError(.jwtExpired, detail: "the token that opened this watch expired; open it again with a new token")
            _ = stream.send(event: "error", data: GoogleErrorBody.encode(error).serialized())
            stream.close()
        }
        let seconds = max(0, deadline - verifier.clock())
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(min(seconds, 86_400) * 1e9)), execute: expiry)
    }

    /// `call` as `token`'s role may see its answer: a consumer reads and watches a trip in the
    /// journey-sharing view (`JOURNEY_SHARING_V1S`) whatever view it asks for, so that on a shared
    /// trip it never sees the other riders' trip IDs.
    static func narrowed(_ call: FleetCall, for token: VerifiedToken?) -> FleetCall {
        guard token?.role == .consumer else { return call }
        switch call {
        case .getTrip(var request):
            request.view = .journeySharingV1s
            return .getTrip(request)
        case .watchTrip(var request):
            request.view = .journeySharingV1s
            return .watchTrip(request)
        default:
            return call
        }
    }

    /// `GET /metrics` with tokens on: the roles that may list a fleet's vehicles (server, fleet
    /// reader) may read the server's metrics; others and calls without a token may not.
    func authorizeMetrics(header: String?) throws {
        guard let verifier else { return }
        let token = try verifier.verify(authorizationHeader: header)
        guard Authorizer.access(of: token.role, to: .listVehicles) != .denied else {
            throw FleetError(.insufficientRole, detail: "a \(token.role) token may not read /metrics (server and fleet-reader tokens may)")
        }
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
        try Authorizer.authorize(token: token, method: call.method, resources: target)
        switch call {
        case .updateVehicle(let request):
            try Authorizer.authorizeVehicleUpdate(token: token, paths: request.updateMask?.paths ?? [])
        case .updateDeliveryVehicle(let request):
            try Authorizer.authorizeDeliveryVehicleUpdate(token: token, paths: request.updateMask?.paths ?? [])
        default:
            break
        }
        return token
    }
}
