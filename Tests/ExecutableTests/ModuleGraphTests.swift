import Foundation
import Testing

/// Core holds protocols and values: no Core target may depend on a system C library (those are
/// plugins' business), and the small bottom modules depend on nothing of ours. Read from Package.swift.
struct ModuleGraphTests {
    /// Each target's name, path and direct dependencies, as Package.swift declares them.
    struct Target {
        var name: String
        var path: String
        var dependencies: [String]
    }

    static func targets() throws -> (targets: [Target], systemLibraries: Set<String>) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let systemLibraries = Set(manifest.matches(of: /\.systemLibrary\(name: "(\w+)"/).map { String($0.1) })
        var targets: [Target] = []
        for match in manifest.matches(of: /\.(?:target|executableTarget|testTarget)\(name: "([\w-]+)",(?:\s*dependencies: \[([^\]]*)\],)?[^)]*?path: "([^"]+)"/) {
            let dependencies = String(match.2 ?? "").matches(of: /"([\w-]+)"/).map { String($0.1) }
            targets.append(Target(name: String(match.1), path: String(match.3), dependencies: dependencies))
        }
        return (targets, systemLibraries)
    }

    @Test func coreDependsOnNoSystemLibrary() throws {
        let (targets, systemLibraries) = try Self.targets()
        let core = targets.filter { $0.path.hasPrefix("Core/") }
        #expect(core.count >= 10, "read \(core.count) Core targets from Package.swift")
        #expect(systemLibraries.contains("COpenSSL"))
        for target in core {
            let system = target.dependencies.filter { systemLibraries.contains($0) || $0.hasSuffix("Shim") }
            #expect(system.isEmpty, "\(target.name) (Core) depends on \(system): move that code to a plugin")
        }
    }

    @Test func bottomModulesDependOnNothingOfOurs() throws {
        let (targets, _) = try Self.targets()
        for name in ["FleetJSON", "FleetRandom", "FleetBackoff", "FleetConcurrency", "HTTPCore"] {
            let target = try #require(targets.first { $0.name == name }, "\(name) is declared")
            #expect(target.dependencies.isEmpty, "\(name) depends on \(target.dependencies)")
        }
    }
}
