#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FleetCLI
import FleetErrors

/// Reading the files commands are given (`--json-body FILE`, `--key FILE`): `-` is standard input.
enum InputFiles {
    /// The whole text of `path` (`-`: standard input), at most `limit` bytes of UTF-8.
    /// Fails with `UNREADABLE_INPUT` naming the file and the reason.
    static func text(_ path: String, standardInput: any TextInput, limit: Int = 16 << 20) throws(FleetError) -> String {
        if path == "-" { return try standardInput.readText(limit: limit) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw FleetError(.unreadableInput, detail: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        return try FileDescriptorInput(fileDescriptor: descriptor, label: path).readText(limit: limit)
    }

    /// The bytes of `path` exactly as stored (secret files), at most `limit` bytes.
    static func bytes(_ path: String, limit: Int = 1 << 20) throws(FleetError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw FleetError(.unreadableInput, detail: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw FleetError(.unreadableInput, detail: "\(path) cannot be read: \(String(cString: strerror(errno)))")
            }
            bytes += chunk[..<count]
            if bytes.count > limit { throw FleetError(.unreadableInput, detail: "\(path) is larger than \(limit) bytes") }
        }
        return bytes
    }
}
