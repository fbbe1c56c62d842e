#if canImport(Glibc)
import Glibc
#endif
import FleetErrors

/// The open journal file: the few POSIX calls the journal needs, failures as `journalIOFailure`
/// errors naming the path and the system's reason. Opened close-on-exec, so child processes never
/// inherit the descriptor (nor a lock on it).
///
/// Not thread-safe: its owner serializes calls.
final class JournalFile {
    /// The file's path, for messages.
    let path: String
    private var descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
    }

    /// Opens `path` for reading and appending, creating it (mode 0600, and the creation made durable by
    /// syncing its folder) when `create` and it does not exist.
    static func open(_ path: String, create: Bool) throws -> JournalFile {
        if create {
            let descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if descriptor >= 0 {
                let file = JournalFile(path: path, descriptor: descriptor)
                try file.syncFolder()
                return file
            }
            guard errno == EEXIST else { throw failure("cannot create", path) }
        }
        let descriptor = Glibc.open(path, (create ? O_RDWR : O_RDONLY) | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("cannot open", path) }
        return JournalFile(path: path, descriptor: descriptor)
    }

    /// The file's size in bytes.
    func size() throws -> Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Self.failure("cannot stat", path) }
        return Int(status.st_size)
    }

    /// Up to `count` bytes at `offset` (fewer at the end of the file).
    func read(at offset: Int, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
            }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw Self.failure("cannot read", path) }
            if got == 0 { break }
            done += got
        }
        bytes.removeSubrange(done...)
        return bytes
    }

    /// Writes all of `bytes` at `offset`.
    func write(_ bytes: [UInt8], at offset: Int) throws {
        var done = 0
        while done < bytes.count {
            let wrote = bytes.withUnsafeBytes { buffer in
                pwrite(descriptor, buffer.baseAddress! + done, bytes.count - done, off_t(offset + done))
            }
            if wrote < 0 && errno == EINTR { continue }
            guard wrote > 0 else { throw Self.failure("cannot append to", path) }
            done += wrote
        }
    }

    /// Cuts the file to `size` bytes.
    func truncate(to size: Int) throws {
        while ftruncate(descriptor, off_t(size)) != 0 {
            guard errno == EINTR else { throw Self.failure("cannot truncate", path) }
        }
    }

    /// Forces the data and the size to disk (`fdatasync`).
    func syncData() throws {
        while fdatasync(descriptor) != 0 {
            guard errno == EINTR else { throw Self.failure("cannot sync", path) }
        }
    }

    /// Takes the exclusive `flock` every writer of the journal holds while it appends (blocks until free).
    func lockExclusive() throws {
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw Self.failure("cannot lock", path) }
        }
    }

    /// Releases the `flock`.
    func unlock() {
        _ = flock(descriptor, LOCK_UN)
    }

    /// Closes the descriptor (which also drops the lock).
    func close() {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
    }

    /// Makes the file's directory entry durable after creating it.
    private func syncFolder() throws {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let descriptor = Glibc.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.failure("cannot open the folder of", path) }
        defer { _ = Glibc.close(descriptor) }
        while fsync(descriptor) != 0 {
            guard errno == EINTR else { throw Self.failure("cannot sync the folder of", path) }
        }
    }

    /// A `journalIOFailure` naming what failed, the path and `errno`'s reason.
    static func failure(_ action: String, _ path: String, errorNumber: Int32 = errno) -> FleetError {
        let reason = String(cString: strerror(errorNumber))
        return FleetError(.journalIOFailure, detail: "\(action) \(path): \(reason)")
    }
}
