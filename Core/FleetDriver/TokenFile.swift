import FleetErrors
import Foundation
import Glibc
import Synchronization

/// A token kept in a file (`--token-file`), re-read whenever the file changes (its modification time,
/// size or inode: a rotation by rename is seen too), else served from memory. Surrounding white space
/// and a `Bearer ` prefix are removed.
public final class TokenFile: Sendable {
    /// The file's path.
    public let path: String
    private let cache = Mutex<(signature: Signature, token: String)?>(nil)
    private let forceNext = Mutex(false)

    private struct Signature: Sendable, Hashable {
        var inode: UInt64
        var size: Int64
        var modifiedSeconds: Int
        var modifiedNanoseconds: Int
    }

    /// The token in the file at `path`.
    public init(path: String) {
        self.path = path
    }

    /// The token, re-read when the file changed or `forceRefresh`.
    /// - Throws: UNAUTHENTICATED (`tokenSourceFailed`) when the file is missing, unreadable or empty.
    public func token(forceRefresh: Bool = false) throws -> String {
        let force = forceRefresh || forceNext.withLock { flag in
            defer { flag = false }
            return flag
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw FleetError(.tokenSourceFailed, detail: "--token-file \(path): \(String(cString: strerror(errno)))")
        }
        let signature = Signature(inode: UInt64(info.st_ino), size: Int64(info.st_size),
                                  modifiedSeconds: info.st_mtim.tv_sec, modifiedNanoseconds: info.st_mtim.tv_nsec)
        if !force, let cached = cache.withLock({ $0 }), cached.signature == signature {
            return cached.token
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FleetError(.tokenSourceFailed, detail: "--token-file \(path) cannot be read")
        }
        var token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if token.lowercased().hasPrefix("bearer ") { token = String(token.dropFirst(7)).trimmingCharacters(in: .whitespaces) }
        guard !token.isEmpty else {
            throw FleetError(.tokenSourceFailed, detail: "--token-file \(path) is empty")
        }
        cache.withLock { $0 = (signature, token) }
        return token
    }

    /// Makes the next `token` call read the file again even if it did not change.
    public func invalidate() {
        forceNext.withLock { $0 = true }
    }
}
