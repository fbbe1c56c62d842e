import FleetAuth
import FleetErrors
import Testing

/// A token server's JSON answer (`--token-url`), read with the configured keys.
@Suite struct TokenResponseFormatTests {
    @Test(arguments: [
        (#"{"token":"abc","expiration_timestamp_ms":1800000600000}"#, "token", "expiration_timestamp_ms", 1_800_000_600.0 as Double?),
        (#"{"access_token":"abc","expires_in":3600}"#, "access_token", "expires_in", 1_800_003_600),
        (#"{"VehicleServiceToken":"abc","TokenExpiryMs":"1800000600000"}"#, "VehicleServiceToken", "TokenExpiryMs", 1_800_000_600),
        (#"{"data":{"jwt":"abc","exp":1800000600}}"#, "data.jwt", "data.exp", 1_800_000_600),
        (#"{"token":"abc","expiry":"2027-01-15T08:00:00Z"}"#, "token", "expiry", 1_800_000_000),
        (#"{"token":"abc"}"#, "token", "expiration_timestamp_ms", nil),
    ])
    func answersAreReadWithTheConfiguredKeysAndAnyExpiryForm(body: String, tokenKey: String, expiryKey: String, expiresAt: Double?) throws {
        let grant = try TokenResponseFormat(tokenKey: tokenKey, expiryKey: expiryKey).grant(from: body, now: 1_800_000_000, source: "test")
        #expect(grant.token == "abc")
        #expect(grant.expiry == expiresAt)
    }

    @Test(arguments: [
        ("not json", "did not answer with a JSON object"),
        (#"{"jwt":"abc"}"#, #"without a string "token" (set --token-key)"#),
        (#"{"token":""}"#, #"without a string "token""#),
        (#"{"token":"abc","expiration_timestamp_ms":"soon"}"#, "neither a number nor an RFC 3339 time (set --token-expiry-key)"),
    ])
    func answersWithoutTheTokenOrWithAnUnreadableExpiryAreUnavailable(body: String, phrase: String) {
        let error = expectFleetError(.tokenUnavailable, containing: phrase) {
            _ = try TokenResponseFormat().grant(from: body, now: 0, source: "--token-url http://x")
        }
        #expect(error?.message.contains("--token-url http://x") == true, "the message names the source")
    }
}
