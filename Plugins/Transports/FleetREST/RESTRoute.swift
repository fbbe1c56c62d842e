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
        var segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard segments.first == "", segments.count >= 4, segments[1] == "v1", segments[2] == "providers" else { throw notFound() }
        segments.removeFirst(3)
        // The custom verb hangs off the last segment.
        var verb: String?
        if let colon = segments[segments.count - 1].lastIndex(of: ":") {
            let last = segments[segments.count - 1]
            verb = String(last[last.index(after: colon)...])
            segments[segments.count - 1] = String(last[..<colon])
        }
        guard let provider = PercentEncoding.decode(segments[0]), !provider.isEmpty, segments.count >= 2,
              let collection = Collection(rawValue: segments[1]) else { throw notFound() }
        switch segments.count {
        case 2:
            id = nil
        case 3:
            guard let decoded = PercentEncoding.decode(segments[2]), !decoded.isEmpty else { throw notFound() }
            id = decoded
        default:
            throw notFound()
        }
        if provider == "." || provider == ".." || id == "." || id == ".." { throw notFound() }
        self.provider = provider
        self.collection = collection
        self.verb = verb
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
