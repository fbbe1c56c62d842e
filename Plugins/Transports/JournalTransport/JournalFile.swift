#if canImport(Glibc)
import Glibc
#endif
import FileIO
import FleetErrors

/// The open journal file: a `PosixFile` whose failures are `journalIOFailure` errors.
typealias JournalFile = PosixFile

extension PosixFile {
    /// Opens the journal at `path` for reading and appending, creating it (mode 0600, the creation
    /// made durable by syncing its folder) when `create` and it does not exist; read-only otherwise.
    static func open(_ path: String, create: Bool) throws -> JournalFile {
        if create {
            if let file = try? PosixFile.open(path, O_RDWR | O_CREAT | O_EXCL, mode: 0o600, failure: .journalIOFailure) {
                try syncFolder(of: path)
                return file
            }
            guard errno == EEXIST else { throw PosixFile.failure("cannot create", path, cause: .journalIOFailure) }
        }
        return try PosixFile.open(path, create ? O_RDWR : O_RDONLY, failure: .journalIOFailure)
    }

    /// Makes the directory entry of a file just created at `path` durable.
    private static func syncFolder(of path: String) throws {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        try PosixFile.open(folder, O_RDONLY | O_DIRECTORY, failure: .journalIOFailure).sync()
    }
}
