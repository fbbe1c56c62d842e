#if canImport(Glibc)
import Glibc
#endif
import FleetCLI
import FleetErrors
import FleetStore
import FileStore
import SQLiteStore

// store-crasher: a test helper that commits to a store until it is killed (see CrasherArguments.command).

let arguments: CrasherArguments
do throws(UsageError) {
    arguments = try CrasherArguments(CommandLineTool.parseOrExit(CrasherArguments.command))
} catch {
    FileDescriptorOutput.standardError.write(error.report)
    exit(2)
}

// MARK: Stores under test: every persistent store (MemoryStore keeps nothing across a kill).
var registry = StoreRegistry()
registry.register(SQLiteStore.scheme(historyFilingInterval: arguments.historyFilingInterval ?? SQLiteStore.defaultHistoryFilingInterval))
registry.register(FileStore.scheme(compaction: CompactionPolicy(maxJournalRecords: arguments.compactRecords ?? .max)))

if let limit = arguments.fileSizeLimit {
    // Writes past the limit fail with EFBIG instead of killing the process with SIGXFSZ.
    signal(SIGXFSZ, SIG_IGN)
    var limits = rlimit(rlim_cur: rlim_t(limit), rlim_max: rlim_t(limit))
    guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limits) == 0 else {
        StandardOutput.write(lines: ["error setrlimit failed: errno \(errno)"])
        exit(1)
    }
}

do {
    let store = try registry.open(arguments.storeURL)
    var existing: [StoreRecord] = []
    for kind in RecordKind.allCases {
        var page = try store.list(kind, provider: arguments.provider, afterID: nil, limit: 500)
        while let last = page.last {
            existing += page
            page = try store.list(kind, provider: arguments.provider, afterID: last.key.id, limit: 500)
        }
    }
    var workload = CrashWorkload(seed: arguments.seed, provider: arguments.provider, existing: existing)
    for number in stride(from: 1, through: arguments.count, by: 1) {
        let writes = workload.nextCommit()
        StandardOutput.write(lines: writes.map { write in
            let version: UInt64
            switch write {
            case .put(_, let expected): version = expected + 1
            case .delete: version = 0
            }
            return "intent \(number) \(write.key) \(version)"
        })
        let versions: [UInt64]
        do {
            versions = try store.commit(writes)
        } catch let error as FleetError where arguments.fileSizeLimit != nil {
            StandardOutput.write(lines: ["failed \(number) \(error)"])
            continue
        }
        workload.acknowledge(writes, versions: versions)
        StandardOutput.write(lines: zip(writes, versions).map { "ack \($0.key) \($1)" })
    }
    try store.close()
    StandardOutput.write(lines: ["done"])
} catch {
    let fleetError = error as? FleetError
    StandardOutput.write(lines: ["error \(fleetError?.description ?? String(describing: error))"])
    exit(1)
}
