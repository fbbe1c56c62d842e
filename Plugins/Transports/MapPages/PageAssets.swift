/// The pages' own files, built into the binary (SwiftPM's `embedInCode` resources): nothing to
/// install beside the executable and no path to configure, and the page always matches the server
/// that serves it. Leaflet is not among them: it comes from the system's package (`--leaflet-dir`).
enum PageAssets {
    /// The bytes and media type of `/map/assets/{name}`, nil for an unknown name.
    static func file(named name: String) -> (bytes: [UInt8], contentType: String)? {
        let bytes: [UInt8]? = switch name {
        case "map.css": PackageResources.map_css
        case "map-common.js": PackageResources.map_common_js
        case "rider.js": PackageResources.rider_js
        case "operator.js": PackageResources.operator_js
        case "tracking.js": PackageResources.tracking_js
        default: nil
        }
        return bytes.map { ($0, contentType(of: name)) }
    }

    /// The page's HTML skeleton, with `{{…}}` slots that `PageTemplate` fills.
    static var pageTemplate: String { String(decoding: PackageResources.page_html, as: UTF8.self) }

    /// The media type for a file name's extension.
    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last {
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "png": "image/png"
        case "svg": "image/svg+xml"
        case "map", "json": "application/json"
        case "html": "text/html; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}
