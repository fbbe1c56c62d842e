#if canImport(Glibc)
import Glibc
#endif
import FileIO
import FleetErrors

/// The exclusive `flock` that makes one process the only writer of a store directory.
///
/// The lock file records the holder's process ID, so a second opener can say who holds it.
/// The kernel drops the lock when the holder exits, however it exits.
final class DirectoryLock {
    private let file: PosixFile

    /// Takes the lock, or throws `storeBusy` naming the process that holds it.
    init(layout: FileStoreLayout) throws {
        let file = try PosixFile.open(layout.lock, O_RDWR | O_CREAT)
        // A child another thread of ours is spawning shares our descriptors until it execs (and closes
        // them, all being O_CLOEXEC), so a lock this process just released can look held for that
        // moment: when the lock file names this process, wait the moment out.
        var retries = 200
        while flock(file.descriptor, LOCK_EX | LOCK_NB) != 0 {
            let error = errno
            if error == EINTR { continue }
            guard error == EWOULDBLOCK else { throw FileSystem.failure("cannot lock", layout.lock, errorNumber: error) }
            let holder = String(decoding: ((try? file.readAll()) ?? []).filter { (0x30...0x39).contains($0) }, as: UTF8.self)
            if holder == String(getpid()) && retries > 0 {
                retries -= 1
                usleep(1_000)
                continue
            }
            let who = holder.isEmpty ? "another process" : "process \(holder)"
            throw FleetError(.storeBusy, detail: "the file store at \(layout.directory) is open in \(who) (it holds \(layout.lock)); a file store has one writer process: stop that process, or share data between processes with a sqlite: store")
        }
        try file.truncate(to: 0)
        try file.write(Array("\(getpid())\n".utf8), at: 0)
        self.file = file
    }

    /// Drops the lock (closing the file releases the `flock`).
    func release() {
        file.close()
    }
}
