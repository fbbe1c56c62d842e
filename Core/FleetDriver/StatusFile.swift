import FleetErrors
import FleetModel
import Glibc

/// The `--status-file`: the reporter's counters as JSON, replaced atomically (written to a temporary
/// file in the same folder, then renamed over the old one) so a reader never sees half a file.
public struct StatusFile: Sendable {
    /// Where the status goes.
    public let path: String

    /// A status file at `path`.
    public init(path: String) {
        self.path = path
    }

    /// Replaces the file's content with `json` (pretty-printed, ending with a new line).
    /// - Throws: INTERNAL naming the path and the system's reason when it cannot be written.
    public func write(_ json: JSON) throws {
        let temporary = "\(path).tmp.\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure("cannot create \(temporary)") }
        var bytes = Array((json.prettyPrinted() + "\n").utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                let error = failure("cannot write \(temporary)")
                close(descriptor)
                unlink(temporary)
                throw error
            }
            bytes = bytes.dropFirst(written)
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let error = failure("cannot rename \(temporary) to \(path)")
            unlink(temporary)
            throw error
        }
    }

    private func failure(_ what: String) -> FleetError {
        FleetError.internal("--status-file: \(what): \(String(cString: strerror(errno)))")
    }
}
