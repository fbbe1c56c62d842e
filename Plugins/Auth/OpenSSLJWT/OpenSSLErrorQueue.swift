import COpenSSL

/// OpenSSL's per-thread error queue, read into text for messages.
enum OpenSSLErrorQueue {
    /// Empties the queue, so that what a call leaves there is about that call.
    static func clear() { ERR_clear_error() }

    /// The queued errors, oldest first, joined by "; " (and the queue emptied); "no detail" when empty.
    static func drain() -> String {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return reasons.isEmpty ? "no detail from OpenSSL" : reasons.joined(separator: "; ")
    }
}
