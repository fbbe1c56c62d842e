import FleetErrors
import FleetModel

/// A parsed Fleet Engine REST path: `/v1/providers/{p}/{collection}[/{id}][:verb]`.
struct RESTRoute {
    enum Collection: String { case vehicles, trips, billableTrips }

    let provider: String
    let collection: Collection
    /// The resource ID, percent-decoded; nil for a collection path.
    let id: String?
    /// The custom verb after ':' (`search`, `updateAttributes`, `report`, `watch`).
    let verb: String?

    var parent: String { "providers/\(provider)" }
    var name: String { "providers/\(provider)/\(collection.rawValue)/\(id ?? "")" }

    /// Parses a raw (percent-encoded) path. Segments are split before decoding, so an encoded '/'
    /// or ':' inside an ID stays in the ID (where the engine's ID rules refuse it), and "." or ".."
    /// segments never match.
    init(path: String) throws {
        // Made only when needed: an error is far costlier than parsing a good path.
        func notFound() -> FleetError { FleetError(.unknownPath, detail: path) }
        let prefix = "/v1/providers/".utf8
        let bytes = path.utf8
        guard bytes.starts(with: prefix) else { throw notFound() }
        // provider/collection[/id], the custom verb hanging off the last segment.
        var segments = bytes[bytes.index(bytes.startIndex, offsetBy: prefix.count)...]
            .split(separator: UInt8(ascii: "/"), maxSplits: 3, omittingEmptySubsequences: false)
        guard (2...3).contains(segments.count) else { throw notFound() }
        var verb: String?
        let last = segments[segments.count - 1]
        if let colon = last.lastIndex(of: UInt8(ascii: ":")) {
            verb = String(decoding: last[last.index(after: colon)...], as: UTF8.self)
            segments[segments.count - 1] = last[..<colon]
        }
        guard let provider = Self.decode(segments[0]), !provider.isEmpty,
              let collection = Collection(rawValue: String(decoding: segments[1], as: UTF8.self)) else { throw notFound() }
        if segments.count == 3 {
            guard let decoded = Self.decode(segments[2]), !decoded.isEmpty else { throw notFound() }
            id = decoded
        } else {
            id = nil
        }
        if provider == "." || provider == ".." || id == "." || id == ".." { throw notFound() }
        self.provider = provider
        self.collection = collection
        self.verb = verb
    }

    /// A path segment percent-decoded (nil if malformed); most have nothing to decode.
    private static func decode(_ segment: Substring.UTF8View.SubSequence) -> String? {
        let text = String(decoding: segment, as: UTF8.self)
        return segment.contains(UInt8(ascii: "%")) ? PercentEncoding.decode(text) : text
    }
}

/// RFC 3986 percent-encoding for path segments and query values.
public enum PercentEncoding {
    static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

    /// Encodes everything but unreserved characters.
    public static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if unreserved.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    /// Decodes %XX escapes; nil when an escape is malformed or the bytes are not UTF-8.
    public static func decode(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next(), let low = iterator.next(),
                      let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else { return nil }
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
