/// A small XML reader for GPX files: start tags with attributes, end tags and text, in order.
///
/// It reads well-formed XML 1.0 as GPS tools write it: the declaration, comments, `CDATA`, `DOCTYPE`
/// and processing instructions are skipped; the five predefined entities and character references are
/// decoded; namespace prefixes are dropped from names (`gpxtpx:speed` is `speed`). It does not validate
/// and does not read DTDs. Malformed markup throws `XMLScanner.Failure` with its byte offset.
struct XMLScanner {
    /// One piece of the document.
    enum Event: Equatable {
        case start(name: String, attributes: [String: String], selfClosing: Bool)
        case end(name: String)
        case text(String)
    }

    /// Why the document could not be read, and where.
    struct Failure: Error, CustomStringConvertible {
        let message: String
        let offset: Int
        var description: String { "\(message) at byte \(offset)" }
    }

    private let bytes: [UInt8]
    private var position = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// Every event of the document, in order.
    static func events(of text: String) throws(Failure) -> [Event] {
        var scanner = XMLScanner(text)
        var events: [Event] = []
        while let event = try scanner.next() { events.append(event) }
        return events
    }

    /// The next event, or nil at the end.
    mutating func next() throws(Failure) -> Event? {
        while position < bytes.count {
            if bytes[position] != UInt8(ascii: "<") {
                let start = position
                while position < bytes.count, bytes[position] != UInt8(ascii: "<") { position += 1 }
                let raw = String(decoding: bytes[start..<position], as: UTF8.self)
                if raw.contains(where: { !$0.isWhitespace }) { return .text(try Self.decodeEntities(raw, offset: start)) }
                continue
            }
            if starts(with: "<!--") {
                try skip(past: "-->")
            } else if starts(with: "<![CDATA[") {
                position += 9
                let start = position
                try skip(past: "]]>")
                return .text(String(decoding: bytes[start..<(position - 3)], as: UTF8.self))
            } else if starts(with: "<?") {
                try skip(past: "?>")
            } else if starts(with: "<!") {
                try skipDeclaration()
            } else if starts(with: "</") {
                position += 2
                let name = readName()
                skipSpaces()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ">"), !name.isEmpty else {
                    throw Failure(message: "malformed end tag", offset: position)
                }
                position += 1
                return .end(name: Self.localName(name))
            } else {
                return try readStartTag()
            }
        }
        return nil
    }

    private mutating func readStartTag() throws(Failure) -> Event {
        let tagStart = position
        position += 1
        let name = readName()
        guard !name.isEmpty else { throw Failure(message: "malformed start tag", offset: tagStart) }
        var attributes: [String: String] = [:]
        while true {
            skipSpaces()
            guard position < bytes.count else { throw Failure(message: "unterminated tag <\(name)>", offset: tagStart) }
            if bytes[position] == UInt8(ascii: ">") {
                position += 1
                return .start(name: Self.localName(name), attributes: attributes, selfClosing: false)
            }
            if starts(with: "/>") {
                position += 2
                return .start(name: Self.localName(name), attributes: attributes, selfClosing: true)
            }
            let attributeName = readName()
            skipSpaces()
            guard !attributeName.isEmpty, position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
                throw Failure(message: "malformed attribute in <\(name)>", offset: position)
            }
            position += 1
            skipSpaces()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") else {
                throw Failure(message: "attribute '\(attributeName)' of <\(name)> is not quoted", offset: position)
            }
            let quote = bytes[position]
            position += 1
            let valueStart = position
            while position < bytes.count, bytes[position] != quote { position += 1 }
            guard position < bytes.count else { throw Failure(message: "unterminated attribute value", offset: valueStart) }
            let raw = String(decoding: bytes[valueStart..<position], as: UTF8.self)
            position += 1
            attributes[Self.localName(attributeName)] = try Self.decodeEntities(raw, offset: valueStart)
        }
    }

    private func starts(with prefix: String) -> Bool {
        let utf8 = Array(prefix.utf8)
        return position + utf8.count <= bytes.count && Array(bytes[position..<(position + utf8.count)]) == utf8
    }

    private mutating func skip(past terminator: String) throws(Failure) {
        let start = position
        while position < bytes.count {
            if starts(with: terminator) {
                position += terminator.utf8.count
                return
            }
            position += 1
        }
        throw Failure(message: "unterminated markup (expected '\(terminator)')", offset: start)
    }

    /// Skips `<!DOCTYPE …>` including an internal subset in brackets.
    private mutating func skipDeclaration() throws(Failure) {
        let start = position
        var depth = 0
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: "[") { depth += 1 }
            if byte == UInt8(ascii: "]") { depth -= 1 }
            if byte == UInt8(ascii: ">"), depth <= 0 { return }
        }
        throw Failure(message: "unterminated declaration", offset: start)
    }

    private mutating func readName() -> String {
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            let isNameByte = byte >= 0x80 || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            guard isNameByte else { break }
            position += 1
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func skipSpaces() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    private static func localName(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }

    /// Decodes `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` and `&#N;` / `&#xH;`.
    static func decodeEntities(_ text: String, offset: Int) throws(Failure) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            guard let semicolon = rest[ampersand...].firstIndex(of: ";") else {
                throw Failure(message: "'&' without ';'", offset: offset)
            }
            let entity = rest[rest.index(after: ampersand)..<semicolon]
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                var scalarValue: UInt32?
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    scalarValue = UInt32(entity.dropFirst(2), radix: 16)
                } else if entity.hasPrefix("#") {
                    scalarValue = UInt32(entity.dropFirst())
                }
                guard let scalarValue, let scalar = Unicode.Scalar(scalarValue) else {
                    throw Failure(message: "unknown entity '&\(entity);'", offset: offset)
                }
                result.unicodeScalars.append(scalar)
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}
