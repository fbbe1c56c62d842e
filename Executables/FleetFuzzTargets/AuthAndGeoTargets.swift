import FleetAuth
import FleetGeo
import FleetInterface
import FleetLocation
import FleetModel
import OpenSSLJWT

/// The key the JWT target signs and verifies with.
private let fuzzSecret = Array("a-fuzzing-secret-of-at-least-thirty-two-bytes".utf8)
private let fuzzSigner = try! SigningKey.hs256(secret: fuzzSecret)
private let fuzzVerifier = TokenVerifier(keys: [try! VerificationKey.hs256(secret: fuzzSecret)],
                                         clock: { 1_767_225_600 })

extension FuzzTarget {
    /// The JWT parser and verifier. First byte even: the rest is a token (or `Bearer …` header) as a
    /// client sends it. Odd: the rest is a claims object, signed with the verifier's key, so the
    /// claim checks (times, audience, role) and the authorization matrix run on it.
    static let jwt = FuzzTarget(name: "jwt", summary: "JWT.decode, TokenVerifier on any token and on signed claims, Authorizer") { data in
        guard let mode = data.first else { return }
        let rest = UnsafeRawBufferPointer(rebasing: data.dropFirst())
        if mode & 1 == 0 {
            let token = text(rest)
            _ = try? JWT.decode(token)
            _ = try? fuzzVerifier.verify(authorizationHeader: token)
            return
        }
        guard case .object(let object)? = try? JSON.parse(rest), let claims = try? JWTClaims(json: object),
              let token = try? fuzzSigner.sign(claims: claims) else { return }
        guard let decoded = try? JWT.decode(token) else {
            invariant(false, "a token we signed does not decode: \(token)")
            return
        }
        invariant(decoded.claims == claims, "claims changed through signing: \(token)")
        guard let verified = try? fuzzVerifier.verify(token) else { return }
        for method in FleetMethod.allCases {
            _ = try? Authorizer.authorize(token: verified, method: method, resources: CallResources(
                provider: "p", vehicleID: "v1", tripID: "t1", deliveryVehicleID: "d1", taskID: "k1", trackingID: "s1"))
            _ = try? Authorizer.authorize(token: verified, method: method, resources: CallResources(provider: "p"))
        }
        _ = try? Authorizer.authorizeVehicleUpdate(token: verified, paths: ["lastLocation", "attributes"])
        _ = try? Authorizer.authorizeDeliveryVehicleUpdate(token: verified, paths: ["lastLocation", "remainingVehicleJourneySegments"])
    }

    /// The encoded-polyline decoder (routes, `currentRouteSegment`): what decodes re-encodes to a
    /// polyline that decodes to as many points, each within a rounding step of the first.
    static let polyline = FuzzTarget(name: "polyline", summary: "Polyline.decode/encode, RouteFile.parse") { data in
        let input = text(data)
        _ = try? RouteFile.parse(input)
        guard let points = try? Polyline.decode(input) else { return }
        let again = try? Polyline.decode(Polyline.encode(points))
        invariant(again?.count == points.count, "re-encoded polyline decodes to \(again?.count ?? -1) points, not \(points.count)")
        if let again {
            for (a, b) in zip(points, again) {
                invariant(abs(a.latitude - b.latitude) <= 1e-5 && abs(a.longitude - b.longitude) <= 1e-5, "point moved: \(a) → \(b)")
            }
        }
    }
}
