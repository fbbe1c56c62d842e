#if canImport(Glibc)
import Glibc
#endif
import FileIO

extension PosixFile {
    /// Opens one of the store's files; failures are `storeFailure` errors.
    static func open(_ path: String, _ flags: Int32) throws -> PosixFile {
        try open(path, flags, failure: .storeFailure)
    }
}
