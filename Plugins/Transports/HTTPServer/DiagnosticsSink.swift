import Synchronization

/// Receives libmicrohttpd's messages: passes each to the configured hook and keeps the last
/// few, so that a failed start can say why.
final class DiagnosticsSink: Sendable {
    private let forward: @Sendable (String) -> Void
    private let recent = Mutex<[String]>([])

    init(forward: @escaping @Sendable (String) -> Void) {
        self.forward = forward
    }

    func receive(_ message: String) {
        var text = Substring(message)
        while text.last == "\n" || text.last == "\r" { text = text.dropLast() }
        let line = String(text)
        recent.withLock { messages in
            messages.append(line)
            if messages.count > 8 { messages.removeFirst() }
        }
        forward(line)
    }

    /// The messages received so far (at most the last 8), oldest first.
    var recentMessages: [String] { recent.withLock { $0 } }
}
