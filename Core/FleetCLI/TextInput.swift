#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FleetErrors

/// Where a command reads text: standard input, or fixed bytes in tests.
public protocol TextInput: Sendable {
    /// All the input as UTF-8 text (a leading byte order mark dropped). Fails with an
    /// `UNREADABLE_INPUT` error saying why: closed, a directory, over `limit` bytes, not UTF-8.
    func readText(limit: Int) throws(FleetError) -> String
    /// Whether the input is a terminal (someone typing).
    var isTerminal: Bool { get }
}

extension TextInput {
    /// All the input, up to 16 MiB.
    public func readText() throws(FleetError) -> String {
        try readText(limit: 16 << 20)
    }
}

/// Reads a file descriptor to its end with `read(2)`.
public struct FileDescriptorInput: TextInput {
    /// The file descriptor.
    public let fileDescriptor: Int32
    /// How the input is named in messages (`standard input`).
    public let label: String

    /// Input from a file descriptor.
    public init(fileDescriptor: Int32, label: String) {
        self.fileDescriptor = fileDescriptor
        self.label = label
    }

    /// Standard input.
    public static let standardInput = FileDescriptorInput(fileDescriptor: 0, label: "standard input")

    /// Whether the descriptor is a terminal.
    public var isTerminal: Bool { Terminal.isTTY(fileDescriptor) }

    /// Reads to the end of input; see `TextInput.readText(limit:)`.
    public func readText(limit: Int) throws(FleetError) -> String {
        var status = stat()
        if fstat(fileDescriptor, &status) != 0 {
            throw unreadable(errno == EBADF ? "\(label) is closed" : "\(label) cannot be read: \(errorText(errno))")
        }
        let fileType = status.st_mode & S_IFMT
        if fileType == S_IFDIR { throw unreadable("\(label) is a directory") }
        // A closed descriptor 0 is soon reused by the runtime (Dispatch's eventfd or epoll), an
        // anonymous inode with no file type: report it as closed rather than as a read error.
        if fileType == 0 { throw unreadable("\(label) is closed (no file, pipe or terminal attached)") }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                read(fileDescriptor, buffer.baseAddress, buffer.count)
            }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw unreadable("\(label) cannot be read: \(errorText(errno))")
            }
            bytes += chunk[..<count]
            if bytes.count > limit { throw unreadable("\(label) is larger than \(limit) bytes") }
        }
        return try TextDecoding.utf8(bytes, label: label)
    }

    private func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    private func unreadable(_ detail: String) -> FleetError {
        FleetError(.unreadableInput, detail: detail)
    }
}

/// Fixed bytes as input, for tests (invalid UTF-8 included).
public struct BytesInput: TextInput {
    /// The bytes.
    public let bytes: [UInt8]
    /// Whether to pretend the input is a terminal.
    public let isTerminal: Bool

    /// Input of these bytes.
    public init(_ bytes: [UInt8], isTerminal: Bool = false) {
        self.bytes = bytes
        self.isTerminal = isTerminal
    }

    /// Input of this text.
    public init(_ text: String) {
        self.init(Array(text.utf8))
    }

    /// The bytes as text; see `TextInput.readText(limit:)`.
    public func readText(limit: Int) throws(FleetError) -> String {
        if bytes.count > limit {
            throw FleetError(.unreadableInput, detail: "standard input is larger than \(limit) bytes")
        }
        return try TextDecoding.utf8(bytes, label: "standard input")
    }
}

/// UTF-8 decoding that reports where the input stops being UTF-8.
enum TextDecoding {
    static func utf8(_ bytes: [UInt8], label: String) throws(FleetError) -> String {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard let text = String(validating: body, as: UTF8.self) else {
            var decoder = UTF8()
            var iterator = body.makeIterator()
            var offset = 0
            loop: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): offset += String(scalar).utf8.count
                case .emptyInput, .error: break loop
                }
            }
            throw FleetError(.unreadableInput, detail: "\(label) is not UTF-8 text (bad byte at offset \(offset))")
        }
        return text
    }
}
