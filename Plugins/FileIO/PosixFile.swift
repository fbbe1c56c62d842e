#if canImport(Glibc)
import Glibc
#endif
import FleetErrors

/// An open file descriptor with the few POSIX calls the file store and the journal need, each
/// retried on EINTR. Failures are `FleetError`s of the cause the opener chose (`storeFailure`,
/// `journalIOFailure`), naming what failed, the path and the system's reason. Descriptors are opened
/// close-on-exec, so child processes never inherit them (nor a lock on them).
///
/// Not thread-safe: its owner serializes calls.
public final class PosixFile {
    /// The file's path, for messages.
    public private(set) var path: String
    /// The descriptor (-1 once closed).
    public private(set) var descriptor: Int32
    /// The cause of the errors this file reports.
    public let failureCause: ErrorCause

    private init(path: String, descriptor: Int32, failureCause: ErrorCause) {
        self.path = path
        self.descriptor = descriptor
        self.failureCause = failureCause
    }

    deinit {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
    }

    /// Opens `path` with `flags` (`O_CLOEXEC` is added); failures, now and later, carry `cause`.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644, failure cause: ErrorCause) throws -> PosixFile {
        let descriptor = Glibc.open(path, flags | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw failure("cannot open", path, cause: cause) }
        return PosixFile(path: path, descriptor: descriptor, failureCause: cause)
    }

    /// The file's size in bytes.
    public func size() throws -> Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure("cannot stat") }
        return Int(status.st_size)
    }

    /// The whole file.
    public func readAll() throws -> [UInt8] {
        try read(at: 0, count: size())
    }

    /// Up to `count` bytes at `offset` (fewer at the end of the file).
    public func read(at offset: Int, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
            }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw failure("cannot read") }
            if got == 0 { break }
            done += got
        }
        bytes.removeSubrange(done...)
        return bytes
    }

    /// Writes all of `bytes` at `offset`.
    public func write(_ bytes: [UInt8], at offset: Int) throws {
        var done = 0
        while done < bytes.count {
            let wrote = bytes.withUnsafeBytes { buffer in
                pwrite(descriptor, buffer.baseAddress! + done, bytes.count - done, off_t(offset + done))
            }
            if wrote < 0 && errno == EINTR { continue }
            guard wrote > 0 else { throw failure("cannot write") }
            done += wrote
        }
    }

    /// Cuts or extends the file to `size` bytes.
    public func truncate(to size: Int) throws {
        while ftruncate(descriptor, off_t(size)) != 0 {
            guard errno == EINTR else { throw failure("cannot truncate") }
        }
    }

    /// Forces the data (and the size) to disk: `fdatasync`.
    public func syncData() throws {
        while fdatasync(descriptor) != 0 {
            guard errno == EINTR else { throw failure("cannot sync") }
        }
    }

    /// Forces data and metadata to disk: `fsync`.
    public func sync() throws {
        while fsync(descriptor) != 0 {
            guard errno == EINTR else { throw failure("cannot sync") }
        }
    }

    /// Takes an exclusive `flock`, waiting until it is free.
    public func lockExclusive() throws {
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw failure("cannot lock") }
        }
    }

    /// Releases the `flock`.
    public func unlock() {
        _ = flock(descriptor, LOCK_UN)
    }

    /// Records that the file was renamed to `path` (the descriptor still refers to it).
    public func renamed(to path: String) {
        self.path = path
    }

    /// Closes the descriptor (dropping any lock); later calls fail with EBADF.
    public func close() {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
    }

    /// The error for the last system call on this file.
    public func failure(_ action: String, errorNumber: Int32 = errno) -> FleetError {
        Self.failure(action, path, cause: failureCause, errorNumber: errorNumber)
    }

    /// An error of `cause` naming what failed on `path` and the system's reason for `errorNumber`.
    public static func failure(_ action: String, _ path: String, cause: ErrorCause, errorNumber: Int32 = errno) -> FleetError {
        FleetError(cause, detail: "\(action) \(path): \(String(cString: strerror(errorNumber))) (errno \(errorNumber))")
    }
}
