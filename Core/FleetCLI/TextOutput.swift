#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Where a command writes text: standard output or error, or a buffer in tests.
public protocol TextOutput: Sendable {
    /// Writes `text` as it is (add the new line yourself).
    func write(_ text: String)
    /// Whether the output is a terminal (colour and progress only go to terminals).
    var isTerminal: Bool { get }
}

/// Writes straight to a file descriptor with `write(2)`: no buffering, so lines reach pipes in
/// order and at once. A reader that went away (EPIPE) ends the writing quietly.
public final class FileDescriptorOutput: TextOutput {
    /// The file descriptor.
    public let fileDescriptor: Int32
    /// Whether the descriptor is a terminal.
    public let isTerminal: Bool
    private let closed = Mutex(false)

    /// Output to a file descriptor.
    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        self.isTerminal = Terminal.isTTY(fileDescriptor)
    }

    /// Standard output.
    public static let standardOutput = FileDescriptorOutput(fileDescriptor: 1)
    /// Standard error.
    public static let standardError = FileDescriptorOutput(fileDescriptor: 2)

    /// Whether a write failed (the reader went away, the disk is full); later writes are dropped.
    public var hasFailed: Bool {
        closed.withLock { $0 }
    }

    /// Writes all of `text`, retrying short writes; does nothing once a write has failed.
    public func write(_ text: String) {
        closed.withLock { isClosed in
            guard !isClosed else { return }
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { buffer in
                    #if canImport(Glibc)
                    Glibc.write(fileDescriptor, buffer.baseAddress, buffer.count)
                    #else
                    Darwin.write(fileDescriptor, buffer.baseAddress, buffer.count)
                    #endif
                }
                if written > 0 {
                    bytes = bytes.dropFirst(written)
                } else if written < 0 && errno == EINTR {
                    continue
                } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&descriptor, 1, -1)
                } else {
                    isClosed = true
                    return
                }
            }
        }
    }
}

/// Keeps what is written, for tests.
public final class CapturedOutput: TextOutput {
    /// Whether to pretend the output is a terminal.
    public let isTerminal: Bool
    private let buffer = Mutex("")

    /// An empty buffer; `isTerminal` pretends to be (or not be) a terminal.
    public init(isTerminal: Bool = false) {
        self.isTerminal = isTerminal
    }

    /// Appends `text`.
    public func write(_ text: String) {
        buffer.withLock { $0 += text }
    }

    /// Everything written so far.
    public var text: String {
        buffer.withLock { $0 }
    }
}
