import FileStore
import FleetStore
import MemoryStore
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
        let needsPath = scheme.needsPath
        let open = scheme.open
        self.init(name: name, persistent: needsPath) { directory, options in
            try open(needsPath ? "\(directory)/store.\(name)" : "", options)
        }
    }

    var testDescription: String { name }
}

/// Every store the contract suite runs against.
enum StoreFactories {
    /// One line per store.
    static let all: [StoreFactory] = [
        StoreFactory(MemoryStore.scheme),
        StoreFactory(SQLiteStore.scheme),
        StoreFactory(FileStore.scheme),
    ]

    /// The stores whose records survive reopening.
    static var persistent: [StoreFactory] { all.filter(\.isPersistent) }
}
