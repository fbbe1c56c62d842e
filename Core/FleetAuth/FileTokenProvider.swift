import FleetErrors
import Foundation
import Synchronization

/// A provider that reads the token from a file (`--token-file`), again whenever the file changes.
///
/// Before each answer it `stat`s the file; when its device, inode, size or modification time
/// (nanoseconds) differ from the last read — or on `forceRefresh` — it reads the file again. Another
/// program can so rotate the token by rewriting or renaming over the file. Surrounding white space
/// (the trailing newline) is trimmed.
public final class FileTokenProvider: TokenProvider {
    /// The file's path.
    public let path: String
    private let cache = Mutex<(signature: FileSignature, token: String)?>(nil)

    /// A provider reading `path`.
    public init(path: String) {
        self.path = path
    }

    /// The file's token: cached while the file is unchanged, read again when it changed or on `forceRefresh`.
    public func token(forceRefresh: Bool) throws -> String {
        let signature = try FileSignature(path: path)
        return try cache.withLock { cached throws -> String in
            if !forceRefresh, let cached, cached.signature == signature { return cached.token }
            let token = try readToken()
            cached = (signature, token)
            return token
        }
    }

    private func readToken() throws -> String {
        let contents: Data
        do {
            contents = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw FleetError(.tokenUnavailable, detail: "the token file \(path) cannot be read: \(error.localizedDescription)")
        }
        guard let text = String(data: contents, encoding: .utf8) else {
            throw FleetError(.tokenUnavailable, detail: "the token file \(path) is not UTF-8 text")
        }
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else { throw FleetError(.tokenUnavailable, detail: "the token file \(path) is empty") }
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

    /// The signature of the file at `path` now.
    /// - Throws: UNAUTHENTICATED `.tokenUnavailable` when the file cannot be `stat`ed.
    init(path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            throw FleetError(.tokenUnavailable, detail: "the token file \(path) cannot be read: \(reason)")
        }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modifiedSeconds = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
    }
}
