import Foundation

/// Finds an executable product of this package built beside the test bundle
/// (`.build/<triple>/<configuration>/`), so tests can run it as a separate OS process.
/// (The same lookup as Tests/StoreTests/BinaryLocator.swift; test targets cannot share sources.)
enum BinaryLocator {
    /// The path of the built executable `name`; throws naming every place searched.
    static func executable(named name: String, sourceFile: String = #filePath) throws -> String {
        let candidates = searchDirectories(sourceFile: sourceFile).map { "\($0)/\(name)" }
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        throw BinaryNotFound(name: name, searched: candidates)
    }

    /// Where builds put executables, most likely first: `FLEET_PRODUCTS_DIR`, the directory of the
    /// running test binary (and of its bundle), then `.build/debug` and `.build/release` of the package
    /// around `sourceFile`.
    static func searchDirectories(sourceFile: String) -> [String] {
        var directories: [String] = []
        if let folder = ProcessInfo.processInfo.environment["FLEET_PRODUCTS_DIR"] {
            directories.append(folder)
        }
        if let running = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            directories += ancestors(of: running, levels: 4)
        }
        directories += ancestors(of: Bundle.main.bundlePath, levels: 2)
        if let root = packageRoot(containing: sourceFile) {
            directories += [".build/debug", ".build/release"].map { "\(root)/\($0)" }
        }
        var seen = Set<String>()
        return directories.filter { seen.insert($0).inserted }
    }

    /// `path`'s directory and up to `levels - 1` of its parents (the test binary sits inside
    /// `X.xctest/` on some platforms and beside it on others).
    private static func ancestors(of path: String, levels: Int) -> [String] {
        var result: [String] = []
        var url = URL(fileURLWithPath: path).deletingLastPathComponent()
        for _ in 0..<levels {
            result.append(url.path)
            url = url.deletingLastPathComponent()
        }
        return result
    }

    /// The nearest directory above `file` holding a Package.swift.
    private static func packageRoot(containing file: String) -> String? {
        var url = URL(fileURLWithPath: file).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url.path
            }
            url = url.deletingLastPathComponent()
        }
        return nil
    }
}

/// No built executable of that name was found.
struct BinaryNotFound: Error, CustomStringConvertible {
    let name: String
    let searched: [String]
    var description: String {
        "the executable '\(name)' was not found (build it with `swift build --product \(name)`); searched: \(searched.joined(separator: ", "))"
    }
}
