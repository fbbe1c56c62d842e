import FleetSchemes
import FleetStore

extension FileStore {
    /// `file:PATH`: the store in directory PATH (created if missing), with the default compaction policy.
    public static let scheme = scheme(compaction: CompactionPolicy())

    /// `file:PATH` with a compaction policy of your own (tests and tools that want frequent compactions).
    public static func scheme(compaction: CompactionPolicy) -> StoreRegistry.Scheme {
        StoreRegistry.Scheme(
            name: "file",
            summary: "a directory holding a snapshot and a write-ahead journal, opened by one process at a time",
            needsPath: true,
            check: { url in try url.requireFolder(of: url.rest) }
        ) { path, options in
            try FileStore(directory: path, options: options, compaction: compaction)
        }
    }
}
