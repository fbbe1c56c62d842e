import FileStore
import FleetTestSupport
import FleetStore
import MemoryStore
import PostgresStore
import SQLiteStore
import Testing

/// How the contract suite opens one kind of store.
struct StoreFactory: Sendable, CustomTestStringConvertible {
    /// Shown in test names: the scheme's name.
    let name: String
    /// Whether records survive `close()` and opening the same directory again.
    let isPersistent: Bool
    /// Opens the store kept in `directory` (empty the first time, the same data on later calls).
    let open: @Sendable (_ directory: String, _ options: StoreOptions) throws -> any Store

    init(name: String, persistent: Bool, open: @escaping @Sendable (String, StoreOptions) throws -> any Store) {
        self.name = name
        self.isPersistent = persistent
        self.open = open
    }

    /// A factory for a registry scheme. A scheme that needs a path keeps its data in
    /// `DIRECTORY/store.NAME` and is treated as persistent.
    init(_ scheme: StoreRegistry.Scheme) {
        let name = scheme.name
        let needsPath = scheme.needsRest
        let registry = StoreRegistry([scheme])
        self.init(name: name, persistent: needsPath) { directory, options in
            let settings = options.settings.map { "&\($0.key)=\($0.value)" }.joined()
            return try registry.open((needsPath ? "\(name):\(directory)/store.\(name)" : name) + "?durable=\(options.durable)" + settings)
        }
    }

    var testDescription: String { name }
}

/// Every store the contract suite runs against.
enum StoreFactories {
    /// One line per store; PostgreSQL when its server is installed (`make setup` installs it).
    static let all: [StoreFactory] = [
        StoreFactory(MemoryStore.scheme),
        StoreFactory(SQLiteStore.scheme),
        StoreFactory(FileStore.scheme),
    ] + (PostgresCluster.isInstalled ? [postgres] : [])

    /// A database of the test process's PostgreSQL cluster per directory: the same directory opens
    /// the same database again.
    static let postgres = StoreFactory(name: "postgres", persistent: true) { directory, options in
        guard let cluster = try PostgresCluster.shared else { throw PostgresMissing() }
        let name = "store_" + String(directory.suffix(36)).lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }
        try cluster.createDatabase(String(name))
        return try PostgresStore(url: cluster.url(database: String(name)), options: options)
    }

    /// The stores whose records survive reopening.
    static var persistent: [StoreFactory] { all.filter(\.isPersistent) }
}

/// PostgreSQL tests asked for a cluster where none is installed.
struct PostgresMissing: Error, CustomStringConvertible {
    var description: String { PostgresCluster.missingMessage }
}
