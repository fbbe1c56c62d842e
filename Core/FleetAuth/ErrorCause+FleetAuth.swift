import FleetErrors

extension ErrorCause {
    /// A token that is not three base64url segments of JSON objects with well-typed claims.
    public static let jwtMalformed = ErrorCause(
        id: "JWT_MALFORMED", code: .unauthenticated,
        summary: "The JWT is malformed",
        remedy: "Send a compact JWT: three base64url segments (no padding) joined by '.', a JSON object header with alg, and a JSON object of claims (exp, iat, nbf numbers; iss, sub strings; aud a string or an array of strings). `fleet-admin token inspect` shows what is wrong.",
        matchPhrases: ["jwt is malformed", "malformed jwt", "jwt malformed", "segments", "base64url", "not a json object"])
    /// A token whose `alg` the server never accepts (`none`) or has no key for (algorithm confusion).
    public static let jwtAlgorithmRejected = ErrorCause(
        id: "JWT_ALGORITHM_REJECTED", code: .unauthenticated,
        summary: "The JWT's signing algorithm (alg) is not accepted",
        remedy: "Sign with an algorithm the server has keys for: RS256 with a service-account key, or HS256 with the server's shared secret. Unsigned tokens (alg none) are never accepted.",
        matchPhrases: ["alg", "algorithm", "alg none", "unsigned token"])
    /// A token signed by a key the server does not know.
    public static let jwtUnknownKey = ErrorCause(
        id: "JWT_UNKNOWN_KEY", code: .unauthenticated,
        summary: "The JWT was signed with a key the server does not know (kid or issuer)",
        remedy: "Set kid to the private key ID of a service account the server is configured with (`--jwt-key`), and iss to that service account's email; after rotating keys, give the server the new public key.",
        matchPhrases: ["kid", "key id", "unknown key", "no key"])
    /// A token whose signature does not verify.
    public static let jwtBadSignature = ErrorCause(
        id: "JWT_BAD_SIGNATURE", code: .unauthenticated,
        summary: "The JWT's signature does not verify",
        remedy: "Sign with the private key that matches the server's public key (or the server's HS256 secret), and send the token unchanged.",
        matchPhrases: ["signature", "bad signature", "invalid signature", "signature verification failed"])
    /// A token whose `aud` is not one the server accepts.
    public static let jwtWrongAudience = ErrorCause(
        id: "JWT_WRONG_AUDIENCE", code: .unauthenticated,
        summary: "The JWT's audience (aud) is not one the server accepts",
        remedy: "Set aud to https://fleetengine.googleapis.com/ or to an audience the server is configured with.",
        matchPhrases: ["audience", "aud claim", "wrong audience", "invalid audience"])
    /// A token whose `nbf` lies in the future.
    public static let jwtNotYetValid = ErrorCause(
        id: "JWT_NOT_YET_VALID", code: .unauthenticated,
        summary: "The JWT is not valid yet (nbf is in the future)",
        remedy: "Use the token after its nbf time, or mint it without nbf; check the clocks of the minting host and the server.",
        matchPhrases: ["not yet valid", "nbf", "not before", "immature"])
    /// A token whose `iat` lies in the future.
    public static let jwtIssuedInFuture = ErrorCause(
        id: "JWT_ISSUED_IN_FUTURE", code: .unauthenticated,
        summary: "The JWT was issued in the future (iat is later than the server's time)",
        remedy: "Check the clock of the host that mints tokens (NTP); iat must not be later than the server's time plus its allowed clock skew.",
        matchPhrases: ["issued in the future", "iat", "issued at"])
    /// A token without a claim the server requires (`exp`).
    public static let jwtMissingClaim = ErrorCause(
        id: "JWT_MISSING_CLAIM", code: .unauthenticated,
        summary: "The JWT lacks a required claim",
        remedy: "Mint tokens with iss, sub, aud, iat and exp (at most one hour after iat), and the authorization claim its role needs (vehicleid, tripid, deliveryvehicleid, taskid or trackingid).",
        matchPhrases: ["missing claim", "required claim", "no exp", "lacks"])
    /// A token whose lifetime (`exp` − `iat`) is longer than the server allows.
    public static let jwtLifetimeTooLong = ErrorCause(
        id: "JWT_LIFETIME_TOO_LONG", code: .unauthenticated,
        summary: "The JWT lives longer than the server allows (exp more than one hour after iat)",
        remedy: "Mint tokens that expire at most one hour after iat (Fleet Engine's limit), or raise the server's maximum token lifetime.",
        matchPhrases: ["lifetime", "one hour", "too long"])
    /// A client whose token provider (`--token-file`, `--token-url`) could not produce a token.
    public static let tokenUnavailable = ErrorCause(
        id: "TOKEN_UNAVAILABLE", code: .unauthenticated,
        summary: "No token could be obtained from the token provider",
        remedy: "Check --token, --token-file (the file exists, is readable and holds the JWT) or --token-url (the server answers 200 with JSON holding the token under --token-key); the message says which failed and why.",
        matchPhrases: ["token file", "token provider", "token url", "token source", "no token could be", "could not obtain a token"])
    /// A verified token from which no role follows.
    public static let jwtWithoutRole = ErrorCause(
        id: "JWT_WITHOUT_ROLE", code: .permissionDenied,
        summary: "The JWT carries no role the server accepts",
        remedy: "Map the token's issuer (the service account's email) to a role in the server's configuration, or mint the token with a fleetrole claim (server, driver, trusted-driver, consumer, fleet-reader).",
        matchPhrases: ["no role", "fleetrole", "without role", "not mapped to a role"])
    /// A token claiming more than its issuer's configured role allows.
    public static let jwtRoleExceedsIssuer = ErrorCause(
        id: "JWT_ROLE_EXCEEDS_ISSUER", code: .permissionDenied,
        summary: "The JWT's fleetrole claim asks for more than its issuer's role allows",
        remedy: "Mint the token with a role the issuer's configured role covers (a server issuer may mint any role, a trusted driver a driver, a fleet reader a consumer), or change the issuer's role in the server's configuration.",
        matchPhrases: ["exceeds", "issuer's role", "more than its issuer"])
    /// A signing or verification key that cannot be used.
    public static let authKeyInvalid = ErrorCause(
        id: "AUTH_KEY_INVALID", code: .invalidArgument,
        summary: "The key cannot be used for JWTs",
        remedy: "Give a PEM RSA key of at least 2048 bits (private for signing; public key or X.509 certificate for verifying), a Google service-account key file (JSON with private_key, private_key_id, client_email), or an HS256 secret file of at least 32 bytes.",
        matchPhrases: ["pem", "private key", "public key", "service account", "secret", "certificate"])
}

/// The error causes FleetAuth reports, in catalogue order: composed into the product's one catalogue
/// where the executables are wired (`ErrorCatalogue.register`), so `error-explain` knows them.
public enum FleetAuthCauses {
    /// Every cause this module reports.
    public static let all: [ErrorCause] = [
        .jwtMalformed, .jwtAlgorithmRejected, .jwtUnknownKey, .jwtBadSignature, .jwtWrongAudience, .jwtNotYetValid, .jwtIssuedInFuture, .jwtMissingClaim, .jwtLifetimeTooLong, .tokenUnavailable, .jwtWithoutRole, .jwtRoleExceedsIssuer, .authKeyInvalid,
    ]
}
