import FleetAuth
import FleetErrors
import FleetModel
import Testing

@Suite struct JWTDecodeTests {
    private static func segment(_ json: String) -> String { Base64URL.encode(json) }
    private static let header = segment(#"{"alg":"RS256","typ":"JWT","kid":"k1"}"#)
    private static let claims = segment(#"{"iss":"a@b","aud":["x","y"],"iat":1,"exp":2.5,"authorization":{"tripid":"t"},"fleetrole":"consumer","jti":"j"}"#)

    @Test func decodesHeaderClaimsAndSignatureWithoutVerifying() throws {
        let token = "\(Self.header).\(Self.claims).\(Base64URL.encode([1, 2, 3]))"
        let jwt = try JWT.decode(token)
        #expect(jwt.header.algorithm == "RS256")
        #expect(jwt.header.knownAlgorithm == .rs256)
        #expect(jwt.header.type == "JWT")
        #expect(jwt.header.keyID == "k1")
        #expect(jwt.claims.issuer == "a@b")
        #expect(jwt.claims.audience == .multiple(["x", "y"]))
        #expect(jwt.claims.issuedAt == 1)
        #expect(jwt.claims.expiresAt == 2.5)
        #expect(jwt.claims.authorization?.tripID == "t")
        #expect(jwt.claims.role == "consumer")
        #expect(jwt.claims.additional["jti"] == "j")
        #expect(jwt.signature == [1, 2, 3])
        #expect(jwt.signingInput == "\(Self.header).\(Self.claims)")
        #expect(jwt.compactSerialization == token)
    }

    @Test func claimsRoundTripThroughJSON() throws {
        let claims = JWTClaims(issuer: "i", subject: "s", audience: .single("a"), issuedAt: 10, expiresAt: 20, notBefore: 5,
                               authorization: AuthorizationScope(vehicleID: "v", deliveryVehicleID: "dv", taskID: "task", trackingID: "parcel"),
                               role: "driver", additional: ["custom": [1, 2]])
        #expect(try JWTClaims(json: claims.json) == claims)
        #expect(JSON.object(claims.json).serialized()
            == #"{"iss":"i","sub":"s","aud":"a","iat":10,"exp":20,"nbf":5,"authorization":{"vehicleid":"v","deliveryvehicleid":"dv","taskid":"task","trackingid":"parcel"},"fleetrole":"driver","custom":[1,2]}"#)
    }

    @Test(arguments: [
        ("a.b", "expected 3 segments separated by '.', found 2"),
        ("a.b.c.d", "expected 3 segments separated by '.', found 4"),
        ("", "found 1"),
        (".\(claims).", "the header segment is empty"),
        ("\(header)..", "the claims segment is empty"),
        ("\(header)=.\(claims).", "the header segment is not base64url: padding '='"),
        ("\(header).\(claims)+x.", "the claims segment is not base64url: character '+'"),
        ("\(header).\(claims).a+b", "the signature segment is not base64url"),
        ("\(segment("{\"alg\":")).\(claims).", "the header is not valid JSON"),
        ("\(header).\(segment("not json")).", "the claims is not valid JSON"),
        ("\(segment("[1]")).\(claims).", "the header is an array, not a JSON object"),
        ("\(header).\(segment("\"text\"")).", "the claims is a string, not a JSON object"),
        ("\(segment("{\"typ\":\"JWT\"}")).\(claims).", "the header has no alg member"),
        ("\(segment("{\"alg\":5}")).\(claims).", "header member alg must be a string, found a number"),
        ("\(header).\(segment("{\"exp\":\"soon\"}")).", "claim exp must be a number (seconds since 1970), found a string"),
        ("\(header).\(segment("{\"aud\":5}")).", "claim aud must be a string or an array of strings, found a number"),
        ("\(header).\(segment("{\"aud\":[\"a\",1]}")).", "each element of claim aud must be a string, found a number"),
        ("\(header).\(segment("{\"iss\":null}")).", "claim iss must be a string, found null"),
        ("\(header).\(segment("{\"authorization\":\"x\"}")).", "claim authorization must be an object, found a string"),
        ("\(header).\(segment("{\"authorization\":{\"tripid\":7}}")).", "authorization.tripid must be a string, found a number"),
        ("\(header).\(segment("{\"fleetrole\":true}")).", "claim fleetrole must be a string, found a boolean"),
    ])
    func malformedTokensAreUnauthenticatedWithTheReason(token: String, reason: String) {
        expectFleetError(.jwtMalformed, containing: reason) { _ = try JWT.decode(token) }
    }

    @Test func anUnsignedTokenDecodesSoThatInspectCanShowIt() throws {
        let jwt = try JWT.decode("\(Self.segment(#"{"alg":"none"}"#)).\(Self.claims).")
        #expect(jwt.header.algorithm == "none")
        #expect(jwt.header.knownAlgorithm == nil)
        #expect(jwt.signature.isEmpty)
    }
}
