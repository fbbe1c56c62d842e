import FleetErrors
import Foundation

/// A URL as a scheme registry reads it (`sqlite:/var/lib/fleet.db?durable=false`): the scheme before the
/// first colon, the rest after it, and the options after `?` for schemes that take options.
public struct SchemeURL: Sendable, Hashable {
    /// The URL as given.
    public var text: String
    /// What the registry opens (`store`, `transport`, `router`): the option and field errors name.
    public var kind: String
    /// The scheme (`sqlite`).
    public var scheme: String
    /// What follows the first colon, without the options (`/var/lib/fleet.db`); empty when nothing does.
    public var rest: String
    /// The options (`durable` → `false`), for schemes that declare options; empty otherwise.
    public var options: [String: String]

    public init(text: String, kind: String, scheme: String, rest: String, options: [String: String] = [:]) {
        self.text = text
        self.kind = kind
        self.scheme = scheme
        self.rest = rest
        self.options = options
    }

    /// A `check` for data kept in files: the folder that holds `path` must exist, so a typo in a path does
    /// not quietly start a new, empty fleet somewhere else.
    /// - Throws: INVALID_ARGUMENT naming the URL's kind, the URL (without a password) and the folder.
    public func requireFolder(of path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        if folder.isEmpty || (FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue) {
            return
        }
        throw FleetError.invalidArgument("'\(Self.redacted(text))': the folder \(folder) does not exist; create it first, or correct the path",
                                         field: kind)
    }

    /// `url` as logs and messages may show it: a password in it (`//USER:PASSWORD@HOST`, `password=…`)
    /// replaced by `***`.
    public static func redacted(_ url: String) -> String {
        var shown = url
        if let slashes = shown.range(of: "//") {
            let authorityEnd = shown[slashes.upperBound...].firstIndex { $0 == "/" || $0 == "?" } ?? shown.endIndex
            if let at = shown[slashes.upperBound..<authorityEnd].lastIndex(of: "@"),
               let colon = shown[slashes.upperBound..<at].firstIndex(of: ":") {
                shown.replaceSubrange(shown.index(after: colon)..<at, with: "***")
            }
        }
        if let query = shown.firstIndex(of: "?") {
            let pairs = shown[shown.index(after: query)...].split(separator: "&", omittingEmptySubsequences: false).map { pair in
                pair.hasPrefix("password=") ? "password=***" : String(pair)
            }
            shown = shown[..<query] + "?" + pairs.joined(separator: "&")
        }
        return shown
    }
}
