import Foundation

/// Finds the executables this package builds (`swift build`, or `swift test`, which builds them).
enum Product {
    struct Missing: Error, CustomStringConvertible {
        let description: String
    }

    /// The built product's path: in `FLEET_PRODUCTS_DIR`, next to the running test bundle, or in
    /// `.build/debug` above this source file.
    static func locate(_ product: String, file: String = #filePath) throws -> URL {
        var folders: [URL] = []
        if let folder = ProcessInfo.processInfo.environment["FLEET_PRODUCTS_DIR"] {
            folders.append(URL(fileURLWithPath: folder))
        }
        if let running = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            var folder = URL(fileURLWithPath: running).deletingLastPathComponent()
            while folder.path != "/" && folder.pathComponents.contains(where: { $0.hasSuffix(".xctest") }) {
                folder = folder.deletingLastPathComponent()
            }
            folders.append(folder)
        }
        folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        var above = URL(fileURLWithPath: file).deletingLastPathComponent()
        while above.path != "/" {
            folders.append(above.appendingPathComponent(".build/debug"))
            above = above.deletingLastPathComponent()
        }
        for folder in folders {
            let candidate = folder.appendingPathComponent(product)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw Missing(description: "\(product) is not built: run `swift build` first (looked in \(folders.map(\.path)))")
    }

    /// PATH and a UTF-8 locale only, so that colour variables and FLEET_* settings of the developer's
    /// shell do not leak into runs.
    static var quietEnvironment: [String: String] {
        ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8"]
    }
}
