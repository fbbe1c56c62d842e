import FleetErrors
import Foundation
import Synchronization

/// A provider that reads the token from a file (`--token-file`), again whenever the file changes.
///
/// Before each answer it `stat`s the file; when its device, inode, size or modification time
/// (nanoseconds) differ from the last read — or on `forceRefresh`, or after `invalidate()` — it reads
/// the file again. Another program can so rotate the token by rewriting or renaming over the file.
/// Surrounding white space (the trailing newline) and a `Bearer ` prefix are removed.
public final class FileTokenProvider: TokenProvider {
    /// The file's path.
    public let path: String
    /// How messages name the file: `the token file PATH`, or what the caller gave (`--token-file PATH`).
    public let label: String
    private let cache = Mutex<(signature: FileSignature, token: String)?>(nil)

    /// A provider reading `path`; `label` names it in messages (default `the token file PATH`).
    public init(path: String, label: String? = nil) {
        self.path = path
        self.label = label ?? "the token file \(path)"
    }

    /// The file's token: cached while the file is unchanged, read again when it changed or on `forceRefresh`.
    public func token(forceRefresh: Bool) throws -> String {
        let signature = try FileSignature(path: path, label: label)
        return try cache.withLock { cached throws -> String in
            if !forceRefresh, let cached, cached.signature == signature { return cached.token }
            let token = try readToken()
            cached = (signature, token)
            return token
        }
    }

    /// Makes the next `token` call read the file again even if it did not change.
    public func invalidate() {
        cache.withLock { $0 = nil }
    }

    private func readToken() throws -> String {
        let contents: Data
        do {
            contents = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw FleetError(.tokenUnavailable, detail: "\(label) cannot be read: \(error.localizedDescription)")
        }
        guard let text = String(data: contents, encoding: .utf8) else {
            throw FleetError(.tokenUnavailable, detail: "\(label) is not UTF-8 text")
        }
        var token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if token.lowercased().hasPrefix("bearer ") {
            token = token.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
        }
        guard !token.isEmpty else { throw FleetError(.tokenUnavailable, detail: "\(label) is empty") }
        return token
    }
}

/// What identifies one version of a file: device, inode, size and modification time.
struct FileSignature: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modifiedSeconds: Int64
    let modifiedNanoseconds: Int64

    /// The signature of the file at `path` now; `label` names it in messages.
    /// - Throws: UNAUTHENTICATED `.tokenUnavailable` when the file cannot be `stat`ed.
    init(path: String, label: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            throw FleetError(.tokenUnavailable, detail: "\(label) cannot be read: \(reason)")
        }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modifiedSeconds = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
    }
}
