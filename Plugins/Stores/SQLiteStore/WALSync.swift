import FleetErrors
import Foundation

/// Makes the store's commits durable by `fdatasync` of SQLite's write-ahead log, apart from the
/// commits themselves.
///
/// The writer connection commits with `synchronous = NORMAL`: in WAL mode SQLite then writes each
/// commit to the log without syncing it, and syncs the log itself before every checkpoint (and the
/// database file after it), so the file stays consistent after a crash and a checkpoint never
/// overwrites the log before what it holds is on disk. One `fdatasync` of the log then makes every
/// commit written before it began durable, however many there were.
///
/// The descriptor is opened on the very file SQLite writes: by the name SQLite gives it, once the
/// writer connection has it open. SQLite deletes the log only when the last connection to the
/// database closes, and the store closes its writer connection only after its last sync, so the file
/// stays the same for the descriptor's life (a checkpoint rewrites it from the start or truncates it,
/// in place). SQLite locks the database and shared-memory files, never the log, so opening and closing
/// a descriptor of it leaves SQLite's POSIX locks alone.
final class WALSync: @unchecked Sendable {
    /// The log's path, for error messages.
    let path: String
    /// Only the syncer (or a lone writer, never both at once) calls `sync`; `close` runs after the last.
    private var descriptor: Int32

    /// Opens the log at `walPath`, which must exist (the writer connection has opened it), and syncs
    /// its folder once so that the log's own name survives a power loss.
    init(walPath: String) throws {
        let descriptor = open(walPath, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw FleetError(.storeFailure, detail: "opening the write-ahead log '\(walPath)' to sync it: \(String(cString: strerror(errno)))")
        }
        self.path = walPath
        self.descriptor = descriptor
        let folder = (walPath as NSString).deletingLastPathComponent
        let folderDescriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            defer { Foundation.close(folderDescriptor) }
            guard fsync(folderDescriptor) == 0 else {
                let reason = String(cString: strerror(errno))
                Foundation.close(descriptor)
                throw FleetError(.storeFailure, detail: "syncing the folder of '\(walPath)': \(reason)")
            }
        }
    }

    deinit { close() }

    /// Makes every commit written to the log before this call durable.
    ///
    /// A failure is final: after a failed `fdatasync` the kernel may have dropped the pages it could
    /// not write and a later one would succeed without them, so the store refuses writes from then on.
    func sync() throws {
        while fdatasync(descriptor) != 0 {
            let code = errno
            if code == EINTR { continue }
            throw FleetError(.storeFailure, detail: "making commits durable: fdatasync of the write-ahead log '\(path)' failed (\(String(cString: strerror(code)))); the store refuses writes from now on, since the data of unsynced commits may be lost (those commits were reported failed, though readers may have seen them): check the disk, then open the store again")
        }
    }

    /// Closes the descriptor. Safe to call twice.
    func close() {
        guard descriptor >= 0 else { return }
        Foundation.close(descriptor)
        descriptor = -1
    }
}
