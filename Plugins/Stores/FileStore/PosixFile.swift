#if canImport(Glibc)
import Glibc
#endif
import FleetErrors

/// An open file descriptor with the few calls the store needs; failures become `storeFailure` errors
/// naming the path and the system's reason. Descriptors are opened close-on-exec, so child
/// processes never inherit them (nor the directory lock).
final class PosixFile {
    /// The file's path, for messages.
    private(set) var path: String
    private(set) var descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
    }

    /// Opens `path` with `flags` (`O_CLOEXEC` is added).
    static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws -> PosixFile {
        let descriptor = Glibc.open(path, flags | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw FileSystem.failure("cannot open", path) }
        return PosixFile(path: path, descriptor: descriptor)
    }

    /// The file's size in bytes.
    func size() throws -> Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw FileSystem.failure("cannot stat", path) }
        return Int(status.st_size)
    }

    /// The whole file.
    func readAll() throws -> [UInt8] {
        let size = try size()
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let count = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + done, size - done, off_t(done))
            }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw FileSystem.failure("cannot read", path) }
            if count == 0 { bytes.removeSubrange(done...); break }
            done += count
        }
        return bytes
    }

    /// Writes all of `bytes` at `offset`.
    func write(_ bytes: [UInt8], at offset: Int) throws {
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                pwrite(descriptor, buffer.baseAddress! + done, bytes.count - done, off_t(offset + done))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw FileSystem.failure("cannot write", path) }
            done += count
        }
    }

    /// Cuts or extends the file to `size` bytes.
    func truncate(to size: Int) throws {
        while ftruncate(descriptor, off_t(size)) != 0 {
            guard errno == EINTR else { throw FileSystem.failure("cannot truncate", path) }
        }
    }

    /// Forces the data (and the size) to disk: `fdatasync`.
    func syncData() throws {
        while fdatasync(descriptor) != 0 {
            guard errno == EINTR else { throw FileSystem.failure("cannot sync", path) }
        }
    }

    /// Forces data and metadata to disk: `fsync`.
    func sync() throws {
        while fsync(descriptor) != 0 {
            guard errno == EINTR else { throw FileSystem.failure("cannot sync", path) }
        }
    }

    /// Records that the file was renamed to `path` (the descriptor still refers to it).
    func renamed(to path: String) {
        self.path = path
    }

    /// Closes the descriptor; later calls fail with EBADF.
    func close() {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
    }
}
