import Foundation
import FleetErrors
import FleetStore
import FileStore

/// A fresh directory for one test, removed when the test lets go of it.
final class FileStoreScratch: Sendable {
    /// The directory; the store itself goes in `storePath` below it.
    let root: String

    init() {
        var template = Array((NSTemporaryDirectory() + "/filestore-test-XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
        }
        guard let created else { preconditionFailure("mkdtemp failed: errno \(errno)") }
        root = created
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Where the store lives (created by the first open).
    var storePath: String { root + "/store" }
    var layout: FileStoreLayout { FileStoreLayout(directory: storePath) }

    /// Opens the store with test-friendly defaults: compaction off, notices collected in `log`.
    func open(durable: Bool = true, compaction: CompactionPolicy = CompactionPolicy(maxJournalBytes: .max),
              log: FileStoreLog = FileStoreLog()) throws -> FileStore {
        try FileStore(directory: storePath, options: StoreOptions(durable: durable), compaction: compaction, log: log.append)
    }

    /// A copy of the store directory's files (LOCK left out), to rebuild crash states from.
    func files() throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: storePath) where name != "LOCK" {
            files[name] = Array(try Data(contentsOf: URL(fileURLWithPath: storePath + "/" + name)))
        }
        return files
    }

    /// Replaces the store directory's files by `files`.
    func restore(_ files: [String: [UInt8]]) throws {
        try? FileManager.default.removeItem(atPath: storePath)
        try FileManager.default.createDirectory(atPath: storePath, withIntermediateDirectories: true)
        for (name, bytes) in files {
            try Data(bytes).write(to: URL(fileURLWithPath: storePath + "/" + name))
        }
    }

    func read(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    func size(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? -1
    }
}

/// Collects a store's notices, so tests can check what recovery reported.
final class FileStoreLog: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []

    var lines: [String] { lock.withLock { collected } }

    @Sendable func append(_ line: String) {
        lock.withLock { collected.append(line) }
    }
}

/// Builds records for tests.
enum FileStoreSamples {
    static let provider = "p1"

    static func vehicle(_ id: String, _ latitude: Double, _ longitude: Double, provider: String = provider, payload: String? = nil) -> StoreRecord {
        StoreRecord(key: RecordKey(.vehicle, provider: provider, id: id), version: 0,
                    payload: Array((payload ?? "vehicle \(id)").utf8), point: IndexPoint(latitude: latitude, longitude: longitude))
    }

    static func trip(_ id: String, owner: String?, provider: String = provider, payload: String? = nil) -> StoreRecord {
        StoreRecord(key: RecordKey(.trip, provider: provider, id: id), version: 0,
                    payload: Array((payload ?? "trip \(id)").utf8), owner: owner)
    }

    /// Every record of the providers, for comparing whole stores.
    static func everything(_ store: any Store, providers: [String] = [provider]) throws -> [StoreRecord] {
        var all: [StoreRecord] = []
        for provider in providers {
            for kind in RecordKind.allCases {
                all += try store.list(kind, provider: provider, afterID: nil, limit: .max)
            }
        }
        return all
    }
}
