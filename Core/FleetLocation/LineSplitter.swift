/// Cuts a byte stream into lines as bytes arrive: `\n`, `\r\n` and lone `\r` end a line. Bytes that
/// are not UTF-8 become U+FFFD, so binary noise on a serial line makes a bad line, not a crash.
public struct LineSplitter: Sendable {
    private var pending: [UInt8] = []
    private var lastWasCarriageReturn = false
    /// Lines longer than this are cut (a stream without line breaks must not grow memory without bound).
    public let maximumLineBytes: Int

    /// A splitter; lines over `maximumLineBytes` are delivered in pieces of that size.
    public init(maximumLineBytes: Int = 64 * 1024) {
        self.maximumLineBytes = maximumLineBytes
    }

    /// Adds bytes and returns the lines they complete, without their line breaks.
    public mutating func append(_ bytes: some Sequence<UInt8>) -> [String] {
        var lines: [String] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if lastWasCarriageReturn {
                    lastWasCarriageReturn = false
                    continue
                }
                lines.append(take())
            } else if byte == UInt8(ascii: "\r") {
                lines.append(take())
                lastWasCarriageReturn = true
                continue
            } else {
                pending.append(byte)
                if pending.count >= maximumLineBytes { lines.append(take()) }
            }
            lastWasCarriageReturn = false
        }
        return lines
    }

    /// The input ended: the last line if it had no line break, else nil.
    public mutating func finish() -> String? {
        lastWasCarriageReturn = false
        return pending.isEmpty ? nil : take()
    }

    private mutating func take() -> String {
        defer { pending.removeAll(keepingCapacity: true) }
        return String(decoding: pending, as: UTF8.self)
    }
}
