#if canImport(Glibc)
import Glibc
#endif
import FileIO
import FleetErrors

/// Path-level operations of the store (directories, renames), each durable when it says so.
enum FileSystem {
    /// Whether something exists at `path`.
    static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    /// Creates `path` and any missing parents, syncing each parent so the new entries survive a crash.
    static func createDirectory(_ path: String) throws {
        var status = stat()
        if stat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw FleetError(.storeFailure, detail: "\(path) exists and is not a directory; the file store needs a directory")
            }
            return
        }
        let parent = parentDirectory(of: path)
        if parent != path { try createDirectory(parent) }
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else { throw failure("cannot create directory", path) }
        try syncDirectory(parent)
    }

    /// Makes the directory's entries (creations, renames, removals) durable.
    static func syncDirectory(_ path: String) throws {
        let directory = try PosixFile.open(path, O_RDONLY | O_DIRECTORY)
        try directory.sync()
    }

    /// Atomically replaces `destination` by `source` (both in one directory; the caller syncs it).
    static func rename(_ source: String, to destination: String) throws {
        guard Glibc.rename(source, destination) == 0 else { throw failure("cannot rename \(source) to", destination) }
    }

    /// Removes a file; true when there was one.
    @discardableResult
    static func remove(_ path: String) throws -> Bool {
        if unlink(path) == 0 { return true }
        if errno == ENOENT { return false }
        throw failure("cannot remove", path)
    }

    /// The directory holding `path` (`.` for a bare name, `/` for the root).
    static func parentDirectory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let parent = trimmed[..<slash]
        return parent.isEmpty ? "/" : String(parent)
    }

    /// A `storeFailure` for the last system call, naming what failed and the system's reason.
    static func failure(_ what: String, _ path: String, errorNumber: Int32 = errno) -> FleetError {
        PosixFile.failure(what, path, cause: .storeFailure, errorNumber: errorNumber)
    }
}
