import FleetTestSupport
import Foundation
import Glibc
import Testing

/// The real `fleet-admin serve` against clients that half-close (`shutdown(SHUT_WR)`) once their
/// request is sent, as `nc -N`, some proxies and hand-written clients do: a write parked for its
/// commit is still answered, in full.
@Suite(.serialized) struct HalfCloseTests {
    static let writers = 8
    static let roundsPerWriter = 200

    @Test func aParkedWriteIsAnsweredToAClientThatHalfClosed() throws {
        let folder = try Products.temporaryDirectory("half-close")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try ServerProcess(store: "sqlite:\(folder.path)/fleet.db")
        defer { server.stop() }
        for writer in 0..<Self.writers {
            let created = try RawHTTP.exchange(server.url, RawHTTP.request(
                "POST", "/v1/providers/p/vehicles?vehicleId=v\(writer)",
                body: Array(#"{"vehicleState":"ONLINE","supportedTripTypes":["EXCLUSIVE"],"maximumCapacity":4,"vehicleType":{"category":"AUTO"}}"#.utf8)))
            try #require(created.status == 200, "\(created.body)")
        }
        // Writers at once, so that each write waits for a group commit with its connection parked
        // while the client's end of file arrives. Each reads until the server closes.
        let failures = FailureList()
        DispatchQueue.concurrentPerform(iterations: Self.writers) { writer in
            for round in 0..<Self.roundsPerWriter {
                let state = round % 2 == 0 ? "OFFLINE" : "ONLINE"
                let request = RawHTTP.request(
                    "PUT", "/v1/providers/p/vehicles/v\(writer)?updateMask=vehicleState",
                    body: Array(#"{"vehicleState":"\#(state)"}"#.utf8))
                do {
                    let answer = try RawHTTP.exchange(server.url, request, halfClose: true, timeout: 15)
                    if answer.status != 200 || !answer.body.contains(#""vehicleState":"\#(state)""#) {
                        failures.add("v\(writer) round \(round): \(answer.status.map(String.init) ?? "no answer") \(answer.body.prefix(120))")
                    }
                } catch {
                    failures.add("v\(writer) round \(round): \(error)")
                }
            }
        }
        let found = failures.all
        #expect(found.isEmpty, "\(found.count) of \(Self.writers * Self.roundsPerWriter) half-closed writes were not answered: \(found.prefix(5))")
        // The server still serves.
        let health = try RawHTTP.exchange(server.url, RawHTTP.request("GET", "/healthz"))
        #expect(health.status == 200)
    }
}

/// Failures collected from concurrent writers.
final class FailureList: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []

    func add(_ item: String) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}
