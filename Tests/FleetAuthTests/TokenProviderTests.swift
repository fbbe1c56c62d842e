import FleetAuth
import FleetErrors
import Foundation
import Synchronization
import Testing
import OpenSSLJWT

/// A token source that counts its calls and hands out numbered tokens.
private final class CountingSource: Sendable {
    private let calls = Mutex<[String]>([])
    let expiry: Double?

    init(expiry: Double?) { self.expiry = expiry }

    var keys: [String] { calls.withLock { $0 } }

    func fetch(_ key: String) -> CachingTokenProvider.Grant {
        let count = calls.withLock { calls -> Int in
            calls.append(key)
            return calls.count
        }
        return ("token-\(key)-\(count)", expiry)
    }
}

@Suite struct CachingTokenProviderTests {
    private let clock = TestClock(1000)

    @Test func cachesUntilTheRefreshMarginBeforeExpiry() throws {
        let source = CountingSource(expiry: 1000 + 3600)
        let provider = CachingTokenProvider(cacheKey: "v1", clock: clock.epochClock, source: source.fetch)
        #expect(try provider.token() == "token-v1-1")
        clock.advance(3600 - 61)
        #expect(try provider.token() == "token-v1-1")
        clock.advance(1)  // 60 s before expiry
        #expect(try provider.token() == "token-v1-2")
        #expect(source.keys == ["v1", "v1"])
    }

    @Test func forceRefreshDropsTheCache() throws {
        let source = CountingSource(expiry: 1000 + 3600)
        let provider = CachingTokenProvider(cacheKey: "v1", clock: clock.epochClock, source: source.fetch)
        #expect(try provider.token() == "token-v1-1")
        #expect(try provider.token(forceRefresh: true) == "token-v1-2")
        #expect(try provider.token() == "token-v1-2")
        provider.invalidate()
        #expect(try provider.token() == "token-v1-3")
    }

    @Test func aNewVehicleIDDropsTheCache() throws {
        let source = CountingSource(expiry: 1000 + 3600)
        let provider = CachingTokenProvider(cacheKey: "v1", clock: clock.epochClock, source: source.fetch)
        #expect(try provider.token() == "token-v1-1")
        #expect(try provider.token(cacheKey: "v2") == "token-v2-2")
        #expect(provider.cacheKey == "v2")
        #expect(try provider.token() == "token-v2-2")
        provider.setCacheKey("v2")
        #expect(try provider.token() == "token-v2-2")
        provider.setCacheKey("v1")
        #expect(try provider.token() == "token-v1-3")
        #expect(source.keys == ["v1", "v2", "v1"])
    }

    @Test func theExpiryIsReadFromTheJWTWhenTheSourceGivesNone() throws {
        let minter = TokenMinter(key: try SigningKey.hs256(secret: Fixture.secret), clock: clock.epochClock)
        let fetches = Mutex(0)
        let provider = CachingTokenProvider(clock: clock.epochClock) {
            fetches.withLock { $0 += 1 }
            return (try minter.mint(role: .driver, vehicleID: "v1", ttl: 600), nil)
        }
        _ = try provider.token()
        clock.advance(600 - 61)
        _ = try provider.token()
        #expect(fetches.withLock { $0 } == 1)
        clock.advance(1)
        _ = try provider.token()
        #expect(fetches.withLock { $0 } == 2)
    }

    @Test func anOpaqueTokenWithoutExpiryIsKeptUntilForced() throws {
        let source = CountingSource(expiry: nil)
        let provider = CachingTokenProvider(clock: clock.epochClock, source: { source.fetch("opaque") })
        #expect(try provider.token() == "token-opaque-1")
        clock.advance(1_000_000)
        #expect(try provider.token() == "token-opaque-1")
        #expect(try provider.token(forceRefresh: true) == "token-opaque-2")
    }

    @Test func aTokenShorterLivedThanTheMarginIsKeptForHalfItsLife() throws {
        let source = CountingSource(expiry: 1000 + 40)
        let provider = CachingTokenProvider(clock: clock.epochClock, source: { source.fetch("short") })
        #expect(try provider.token() == "token-short-1")
        clock.advance(19)
        #expect(try provider.token() == "token-short-1")
        clock.advance(1)
        #expect(try provider.token() == "token-short-2")
    }

    @Test func anExpiredTokenIsReturnedButNotCached() throws {
        let source = CountingSource(expiry: 999)
        let provider = CachingTokenProvider(clock: clock.epochClock, source: { source.fetch("old") })
        #expect(try provider.token() == "token-old-1")
        #expect(try provider.token() == "token-old-2")
    }

    @Test func sourceFailuresAndEmptyTokensAreErrors() {
        let failing = CachingTokenProvider(clock: clock.epochClock) { throw FleetError(.serverUnavailable) }
        expectFleetError(.serverUnavailable) { _ = try failing.token() }
        let empty = CachingTokenProvider(clock: clock.epochClock) { ("", nil) }
        expectFleetError(.tokenUnavailable, containing: "empty token") { _ = try empty.token() }
    }
}

@Suite struct FileAndStaticTokenProviderTests {
    private func temporaryFile() -> String {
        NSTemporaryDirectory() + "fleet-auth-token-\(UUID().uuidString)"
    }

    private func write(_ text: String, to path: String, modified: Date? = nil) throws {
        // Rewrite in place (same inode), as `echo token > file` does.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
        if let modified { try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path) }
    }

    @Test func aStaticProviderAlwaysGivesItsToken() throws {
        let provider = StaticTokenProvider(token: "abc")
        #expect(try provider.token() == "abc")
        #expect(try provider.token(forceRefresh: true) == "abc")
    }

    @Test func theFileIsReadAgainWhenItChanges() throws {
        let path = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        try write("token-one\n", to: path, modified: first)
        let provider = FileTokenProvider(path: path)
        #expect(try provider.token() == "token-one")

        // Same size and inode, but a new modification time: read again.
        try write("token-two\n", to: path, modified: first.addingTimeInterval(1))
        #expect(try provider.token() == "token-two")

        // A different size, modification time put back: read again.
        try write("token-three\n", to: path, modified: first.addingTimeInterval(1))
        #expect(try provider.token() == "token-three")
    }

    /// A provider that read "token-aaa", over a file then rewritten to "token-bbb" keeping inode, size
    /// and modification time (so it looks unchanged). The caller removes the file.
    func providerOverSilentlyRewrittenFile() throws -> (provider: FileTokenProvider, path: String) {
        let path = temporaryFile()
        let modified = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        try write("token-aaa", to: path, modified: modified)
        let provider = FileTokenProvider(path: path)
        #expect(try provider.token() == "token-aaa")
        try write("token-bbb", to: path, modified: modified)
        return (provider, path)
    }

    @Test func anUnchangedFileIsNotReadAgainUnlessForced() throws {
        let (provider, path) = try providerOverSilentlyRewrittenFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Changed bytes, but the same inode, size and modification time: the cache still answers.
        #expect(try provider.token() == "token-aaa")
        #expect(try provider.token(forceRefresh: true) == "token-bbb")
    }

    @Test func aBearerPrefixIsDroppedAndARenamedFileIsReadAgain() throws {
        let path = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "Bearer first.token\n".write(toFile: path, atomically: true, encoding: .utf8)
        let provider = FileTokenProvider(path: path, label: "--token-file \(path)")
        #expect(try provider.token() == "first.token")
        // Written to a new file renamed over the old one (a new inode), as a rotating agent does.
        try "second.token".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try provider.token() == "second.token")
        expectFleetError(.tokenUnavailable, containing: "--token-file \(path).none cannot be read") {
            _ = try FileTokenProvider(path: path + ".none", label: "--token-file \(path).none").token()
        }
    }

    @Test func invalidateMakesTheNextCallReadTheFileAgain() throws {
        let (provider, path) = try providerOverSilentlyRewrittenFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try provider.token() == "token-aaa", "unchanged signature: cached")
        provider.invalidate()
        #expect(try provider.token() == "token-bbb")
    }

    @Test func missingAndEmptyFilesAreUnavailable() throws {
        let path = temporaryFile()
        expectFleetError(.tokenUnavailable, containing: "cannot be read: No such file or directory") {
            _ = try FileTokenProvider(path: path).token()
        }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(" \n".utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        expectFleetError(.tokenUnavailable, containing: "is empty") { _ = try FileTokenProvider(path: path).token() }
    }
}
