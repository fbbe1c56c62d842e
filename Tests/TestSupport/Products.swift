import Foundation

/// Finds the executables `swift build` made, for tests that run the real binaries.
public enum Products {
    /// The built product's path: in `FLEET_PRODUCTS_DIR`, next to the running test bundle or
    /// program, or in `.build/debug` above this source file. `swift build` builds them all.
    public static func locate(_ product: String, file: String = #filePath) throws -> URL {
        var folders: [URL] = []
        if let folder = ProcessInfo.processInfo.environment["FLEET_PRODUCTS_DIR"] {
            folders.append(URL(fileURLWithPath: folder))
        }
        if let running = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            var folder = URL(fileURLWithPath: running).deletingLastPathComponent()
            // Inside a bundle (…/X.xctest/Contents/MacOS/X) the products folder is above the bundle.
            while folder.path != "/" && folder.pathComponents.contains(where: { $0.hasSuffix(".xctest") }) {
                folder = folder.deletingLastPathComponent()
            }
            folders.append(folder)
        }
        if let program = CommandLine.arguments.first {
            folders.append(URL(fileURLWithPath: program).deletingLastPathComponent())
        }
        var above = URL(fileURLWithPath: file).deletingLastPathComponent()
        while above.path != "/" {
            folders.append(above.appendingPathComponent(".build/debug"))
            above = above.deletingLastPathComponent()
        }
        for folder in folders {
            let candidate = folder.appendingPathComponent(product)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw ProductNotBuilt(product: product, searched: folders.map(\.path))
    }

    public struct ProductNotBuilt: Error, CustomStringConvertible {
        public let product: String
        public let searched: [String]
        public var description: String { "\(product) is not built: run `swift build` first (looked in \(searched))" }
    }

    /// A fresh temporary folder, removed by the caller.
    public static func temporaryDirectory(_ label: String = "fleet-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
