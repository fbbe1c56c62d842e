import FleetErrors
import FleetInterface
import FleetModel

/// A REST path template of Google's `google.api.http` rules (`/v1/{name=providers/*/vehicles/*}:updateAttributes`):
/// literal segments, one variable binding a request field to a run of segments (`*` matching one), and an
/// optional custom verb after ':'. Matches raw paths and expands resource names back into paths.
struct PathTemplate: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case wildcard
    }

    /// The request field the variable binds (JSON names: `name`, `parent`, or a nested `deliveryVehicle.name`).
    let field: String
    /// `field` as a path of object members (`["deliveryVehicle", "name"]`).
    let fieldPath: [String]
    let segments: [Segment]
    /// Which segments the variable covers.
    let variable: Range<Int>
    /// The custom verb (`updateAttributes`), nil without one.
    let verb: String?
    /// The literal segments' positions and bytes, the last first: the leading ones (`v1`, `providers`)
    /// are every template's, a later one (`trips`, `taskTrackingInfo`) tells templates apart at once.
    private let literals: [(index: Int, bytes: [UInt8])]
    /// The template text, for expanding: the parts before and after the variable.
    private let head: String
    private let tail: String

    init(_ template: String) {
        let open = template.firstIndex(of: "{")!, close = template.firstIndex(of: "}")!
        let inner = template[template.index(after: open)..<close].split(separator: "=", maxSplits: 1)
        field = FieldMask.camelCase(String(inner[0]))
        fieldPath = field.split(separator: ".").map(String.init)
        head = String(template[..<open])
        tail = String(template[template.index(after: close)...])
        var rest = tail
        if let colon = rest.lastIndex(of: ":") {
            verb = String(rest[rest.index(after: colon)...])
            rest = String(rest[..<colon])
        } else {
            verb = nil
        }
        func parse(_ text: Substring) -> [Segment] {
            text.split(separator: "/").map { $0 == "*" ? .wildcard : .literal(String($0)) }
        }
        let before = parse(head[...]), inside = parse(inner[1]), after = parse(rest[...])
        segments = before + inside + after
        variable = before.count..<(before.count + inside.count)
        literals = segments.enumerated().reversed().compactMap { index, segment in
            guard case .literal(let text) = segment else { return nil }
            return (index, Array(text.utf8))
        }
    }

    /// What a path must have to match: this many segments and this custom verb.
    var shape: PathShape { PathShape(segments: segments.count, verb: verb) }

    /// The value the variable binds in a raw (percent-encoded) path, nil when the path does not match.
    /// Segments are split before decoding, so an encoded '/' or ':' inside an ID stays in the ID (where
    /// the engine's ID rules refuse it); empty, ".", ".." or malformed segments never match a wildcard.
    func match(_ path: RawPath) -> String? {
        guard path.verb == verb, path.segments.count == segments.count else { return nil }
        for literal in literals where !path.segments[literal.index].elementsEqual(literal.bytes) { return nil }
        var parts: [String] = []
        parts.reserveCapacity(variable.count)
        for (index, segment) in segments.enumerated() {
            let raw = path.segments[index]
            switch segment {
            case .literal(let text):
                guard raw.elementsEqual(text.utf8) else { return nil }
                if variable.contains(index) { parts.append(text) }
            case .wildcard:
                guard let decoded = RawPath.decode(raw), !decoded.isEmpty, decoded != ".", decoded != ".." else { return nil }
                if variable.contains(index) { parts.append(decoded) }
            }
        }
        return parts.joined(separator: "/")
    }

    /// The path for a resource name: each of its segments percent-encoded ('/' kept between them).
    func expand(_ value: String) -> String {
        head + value.split(separator: "/", omittingEmptySubsequences: false).map { PercentEncoding.encode(String($0)) }.joined(separator: "/") + tail
    }
}

/// How many segments a path has and its custom verb: only templates of a path's shape can match it.
struct PathShape: Hashable, Sendable {
    var segments: Int
    var verb: String?
}

/// A request path split once for matching against the templates: its segments (raw) and custom verb.
struct RawPath {
    let segments: [Substring.UTF8View.SubSequence]
    let verb: String?

    init(_ path: String) {
        let bytes = path.utf8
        guard bytes.first == UInt8(ascii: "/") else {
            segments = []
            verb = nil
            return
        }
        var segments = bytes.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        var verb: String?
        if let last = segments.last, let colon = last.lastIndex(of: UInt8(ascii: ":")) {
            verb = String(decoding: last[last.index(after: colon)...], as: UTF8.self)
            segments[segments.count - 1] = last[..<colon]
        }
        self.segments = segments
        self.verb = verb
    }

    var shape: PathShape { PathShape(segments: segments.count, verb: verb) }

    /// A path segment percent-decoded (nil if malformed); most have nothing to decode.
    static func decode(_ segment: Substring.UTF8View.SubSequence) -> String? {
        let text = String(decoding: segment, as: UTF8.self)
        return segment.contains(UInt8(ascii: "%")) ? PercentEncoding.decode(text) : text
    }
}

/// The query parameters a REST call binds (generated per method from its request message): the fields
/// they may name, and which are repeated, booleans or numbers (the rest are read as text).
struct QueryFields: Sendable {
    var fields: Set<String>
    var repeated: Set<String>
    var booleans: Set<String>
    var numbers: Set<String>
}
