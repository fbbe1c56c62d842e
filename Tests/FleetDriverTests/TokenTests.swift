import FleetDriver
import FleetErrors
import Foundation
import Synchronization
import Testing

@Suite("Token sources: server answers, the cache, token files")
struct TokenTests {
    @Test("Token server answers are read with the configured keys and any expiry form", arguments: [
        (#"{"token":"abc","expiration_timestamp_ms":1800000600000}"#, "token", "expiration_timestamp_ms", 1_800_000_600.0 as Double?),
        (#"{"access_token":"abc","expires_in":3600}"#, "access_token", "expires_in", 1_800_003_600),
        (#"{"VehicleServiceToken":"abc","TokenExpiryMs":"1800000600000"}"#, "VehicleServiceToken", "TokenExpiryMs", 1_800_000_600),
        (#"{"data":{"jwt":"abc","exp":1800000600}}"#, "data.jwt", "data.exp", 1_800_000_600),
        (#"{"token":"abc","expiry":"2027-01-15T08:00:00Z"}"#, "token", "expiry", 1_800_000_000),
        (#"{"token":"abc"}"#, "token", "expiration_timestamp_ms", nil),
    ])
    func readsAnswers(body: String, tokenKey: String, expiryKey: String, expiresAt: Double?) throws {
        let grant = try TokenResponse(tokenKey: tokenKey, expiryKey: expiryKey).grant(from: body, now: 1_800_000_000, source: "test")
        #expect(grant.token == "abc")
        #expect(grant.expiresAt == expiresAt)
    }

    @Test("Answers without the token, or with an unreadable expiry, are clear UNAUTHENTICATED errors", arguments: [
        "not json", #"{"jwt":"abc"}"#, #"{"token":""}"#, #"{"token":"abc","expiration_timestamp_ms":"soon"}"#,
    ])
    func refusesAnswers(body: String) {
        let error = #expect(throws: FleetError.self) { try TokenResponse().grant(from: body, now: 0, source: "--token-url http://x") }
        #expect(error?.code == .unauthenticated)
        #expect(error?.message.contains("--token-url http://x") == true)
    }

    final class Clock: Sendable {
        let now = Mutex(1_800_000_000.0)
        func read() -> Double { now.withLock { $0 } }
        func advance(_ seconds: Double) { now.withLock { $0 += seconds } }
    }

    @Test("The cache reuses a token until shortly before expiry, refreshes when forced, and per vehicle")
    func cache() throws {
        let clock = Clock()
        let fetches = Mutex<[String]>([])
        let cache = TokenCache(refreshMarginSeconds: 600, now: { clock.read() }) { vehicle in
            let count = fetches.withLock { $0.append(vehicle); return $0.count }
            return TokenGrant(token: "\(vehicle)-\(count)", expiresAt: clock.read() + 3600)
        }
        #expect(try cache.token(vehicleID: "a") == "a-1")
        clock.advance(2000)
        #expect(try cache.token(vehicleID: "a") == "a-1", "fresh for another 1600 s, 600 of them margin")
        clock.advance(1100)
        #expect(try cache.token(vehicleID: "a") == "a-2", "within the margin: refreshed before expiry")
        #expect(try cache.token(vehicleID: "b") == "b-3", "another vehicle drops the cached token")
        #expect(try cache.token(vehicleID: "b") == "b-3")
        cache.invalidate()
        #expect(try cache.token(vehicleID: "b") == "b-4", "after UNAUTHENTICATED a fresh token")
        #expect(try cache.token(vehicleID: "b", forceRefresh: true) == "b-5")
    }

    @Test("Short-lived tokens are still reused for half their life")
    func shortLived() throws {
        let clock = Clock()
        let count = Mutex(0)
        let cache = TokenCache(refreshMarginSeconds: 600, now: { clock.read() }) { _ in
            TokenGrant(token: "t\(count.withLock { $0 += 1; return $0 })", expiresAt: clock.read() + 120)
        }
        #expect(try cache.token(vehicleID: "a") == "t1")
        clock.advance(50)
        #expect(try cache.token(vehicleID: "a") == "t1")
        clock.advance(20)
        #expect(try cache.token(vehicleID: "a") == "t2")
    }

    @Test("A token file is re-read when it changes, trimmed, and a missing file is a clear error")
    func tokenFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("token-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("jwt").path
        try "Bearer first.token\n".write(toFile: path, atomically: true, encoding: .utf8)
        let file = TokenFile(path: path)
        #expect(try file.token() == "first.token")
        try "second.token.longer".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try file.token() == "second.token.longer", "a rotated file (new inode) is read again")
        try "   \n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: FleetError.self) { try file.token() }
        let missing = #expect(throws: FleetError.self) { try TokenFile(path: folder.path + "/none").token() }
        #expect(missing?.code == .unauthenticated)
        #expect(missing?.message.contains("No such file") == true)
    }

    @Test("The driver token source hands out the fixed token, and none without a source")
    func driverSource() throws {
        #expect(try DriverTokenSource(kind: .fixed("jwt"), vehicleID: "v").closure?(false) == "jwt")
        #expect(DriverTokenSource(kind: .none, vehicleID: "v").closure == nil)
        #expect(throws: FleetError.self) { try DriverTokenSource(kind: .none, vehicleID: "v").token(forceRefresh: false) }
    }
}
