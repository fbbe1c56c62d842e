import FleetErrors
import FleetStore
import Foundation

/// Page tokens: the last ID a page returned, so paging survives concurrent writes (keyset paging).
enum PageToken {
    static func encode(_ lastID: String) -> String {
        Data("v1:\(lastID)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The last ID of the previous page, or nil for the first page.
    static func decode(_ token: String?, field: String) throws -> String? {
        guard let token, !token.isEmpty else { return nil }
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8),
              text.hasPrefix("v1:") else {
            throw FleetError.invalidArgument("\(field) '\(token)' is not a token this server issued; pass nextPageToken from the previous response", field: field)
        }
        return String(text.dropFirst(3))
    }
}

extension Engine {
    /// Visits every record of a kind and provider in ID order, a chunk at a time.
    func forEachRecord(_ kind: RecordKind, provider: String, _ body: (StoreRecord) throws -> Void) throws {
        var cursor: String?
        while true {
            let chunk = try store.list(kind, provider: provider, afterID: cursor, limit: 512)
            for record in chunk { try body(record) }
            guard chunk.count == 512, let last = chunk.last else { return }
            cursor = last.key.id
        }
    }
}
