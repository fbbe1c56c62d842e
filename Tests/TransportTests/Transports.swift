import FleetEngine
import FleetInterface
import FleetModel
import FleetTestSupport
import Foundation
import JournalTransport
import MemoryStore
import RESTClient
import Testing

/// One transport under the contract suite: how to get a fresh, empty engine behind it.
struct TransportKind: Sendable, CustomTestStringConvertible {
    let name: String
    let connect: @Sendable () throws -> Connected

    var testDescription: String { name }

    /// A connected API, and whatever must stay alive (a server process) while it is used.
    struct Connected {
        let api: any TripWatching & TaskWatching
        let keepAlive: AnyObject?
    }

    static let memory = TransportKind(name: "memory") {
        Connected(api: Engine(store: MemoryStore()), keepAlive: nil)
    }

    /// A real `fleet-admin serve` on an ephemeral loopback port, over a memory store.
    static let http = TransportKind(name: "http") {
        let server = try ServerProcess(store: "memory")
        return Connected(api: try RESTClient(baseURL: server.url), keepAlive: server)
    }

    /// A journal file, as processes on one host share it.
    static let file = TransportKind(name: "file") {
        let folder = try TemporaryFolder()
        let journal = try JournalTransport(path: folder.url.appendingPathComponent("journal.jsonl").path)
        return Connected(api: journal, keepAlive: folder)
    }

    /// A real `fleet-admin serve` over a fresh database of the test process's PostgreSQL cluster.
    static let httpPostgres = TransportKind(name: "http-postgres") {
        guard let cluster = try PostgresCluster.shared else { throw PostgresCluster.CommandFailed(command: "initdb", output: PostgresCluster.missingMessage) }
        let server = try ServerProcess(store: try cluster.database(named: "transport"))
        return Connected(api: try RESTClient(baseURL: server.url), keepAlive: server)
    }

    static let all: [TransportKind] = [.memory, .file, .http] + (PostgresCluster.isInstalled ? [.httpPostgres] : [])

    /// Runs `body` with a fresh engine behind this transport, keeping the server alive until it returns.
    func with<T>(_ body: (any TripWatching & TaskWatching) throws -> T) throws -> T {
        let connected = try connect()
        return try withExtendedLifetime(connected.keepAlive) { try body(connected.api) }
    }
}

/// A temporary folder removed when released.
final class TemporaryFolder: @unchecked Sendable {
    let url: URL
    init() throws { url = try Products.temporaryDirectory("transport") }
    deinit { try? FileManager.default.removeItem(at: url) }
}
