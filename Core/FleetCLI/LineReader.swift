#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FleetErrors

/// Reads a file (or standard input, `-`) line by line, a chunk at a time, so that imports of any
/// size stream. Lines are UTF-8; `\r\n` endings are accepted; blank lines are skipped.
public struct LineReader {
    /// The file's name in messages (`standard input` for `-`).
    public let label: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool

    /// Opens `path` (`-`: standard input). Fails with `UNREADABLE_INPUT` naming the file.
    public init(path: String) throws(FleetError) {
        if path == "-" {
            descriptor = 0
            ownsDescriptor = false
            label = "standard input"
        } else {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw FleetError(.unreadableInput, detail: "cannot open \(path): \(String(cString: strerror(errno)))")
            }
            ownsDescriptor = true
            label = path
        }
    }

    /// Calls `body` with each non-blank line and its number (from 1), in order; then closes the file.
    public func forEachLine(_ body: (String, Int) throws -> Void) throws {
        defer { if ownsDescriptor { close(descriptor) } }
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var lineNumber = 0
        func emit(_ bytes: ArraySlice<UInt8>) throws {
            lineNumber += 1
            var line = bytes
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            guard let text = String(validating: line, as: UTF8.self) else {
                throw FleetError(.unreadableInput, detail: "\(label) line \(lineNumber) is not UTF-8 text")
            }
            if !text.allSatisfy(\.isWhitespace) { try body(text, lineNumber) }
        }
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FleetError(.unreadableInput, detail: "\(label) cannot be read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            pending += chunk[..<count]
            var start = pending.startIndex
            while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                try emit(pending[start..<newline])
                start = newline + 1
            }
            pending.removeSubrange(..<start)
        }
        if !pending.isEmpty { try emit(pending[...]) }
    }
}
