import FleetErrors
import FleetModel

/// How a token server's JSON answer is read, as the Driver and Consumer SDKs' token provider samples
/// do: the token under `tokenKey` (default `token`) and its expiry under `expiryKey` (default
/// `expiration_timestamp_ms`).
///
/// The expiry may be epoch milliseconds (a number above 10^11, or any number under a key ending in `_ms`
/// or `Ms`), epoch seconds (above 10^9), seconds from now (smaller numbers, like OAuth's `expires_in`),
/// or an RFC 3339 string. A missing expiry is allowed: `CachingTokenProvider` then reads the token's own
/// `exp`, else keeps it until a 401 or a forced refresh. Keys may be dotted paths into nested objects
/// (`data.token`).
public struct TokenResponseFormat: Sendable, Hashable {
    /// Where the token is.
    public var tokenKey: String
    /// Where the expiry is.
    public var expiryKey: String

    /// The default keys are those of the SDK samples.
    public init(tokenKey: String = "token", expiryKey: String = "expiration_timestamp_ms") {
        self.tokenKey = tokenKey
        self.expiryKey = expiryKey
    }

    /// The grant in `body`, received at `now` (epoch seconds); `source` names the server in messages.
    /// - Throws: UNAUTHENTICATED (`tokenUnavailable`) naming the key that is missing or malformed.
    public func grant(from body: String, now: Double, source: String) throws -> CachingTokenProvider.Grant {
        guard let json = try? JSON.parse(body), json.objectValue != nil else {
            throw FleetError(.tokenUnavailable, detail: "\(source) did not answer with a JSON object: \(body.prefix(120))")
        }
        guard let token = Self.value(at: tokenKey, in: json)?.stringValue, !token.isEmpty else {
            throw FleetError(.tokenUnavailable, detail: "\(source) answered without a string \"\(tokenKey)\" (set --token-key)")
        }
        var expiresAt: Double?
        if let expiry = Self.value(at: expiryKey, in: json), !expiry.isNull {
            if let number = expiry.doubleValue ?? expiry.stringValue.flatMap(Double.init) {
                let inMilliseconds = expiryKey.hasSuffix("_ms") || expiryKey.hasSuffix("Ms") || number > 1e11
                if inMilliseconds { expiresAt = number / 1000 } else if number > 1e9 { expiresAt = number } else { expiresAt = now + number }
            } else if let text = expiry.stringValue, let time = try? Timestamp(rfc3339: text) {
                expiresAt = time.timeIntervalSince1970
            } else {
                throw FleetError(.tokenUnavailable,
                                 detail: "\(source): \"\(expiryKey)\" is neither a number nor an RFC 3339 time (set --token-expiry-key)")
            }
        }
        return (token, expiresAt)
    }

    private static func value(at path: String, in json: JSON) -> JSON? {
        var current: JSON? = json
        for key in path.split(separator: ".") {
            current = current?[String(key)]
        }
        return current
    }
}
