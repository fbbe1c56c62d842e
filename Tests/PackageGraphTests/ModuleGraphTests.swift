import Foundation
import Testing

/// The package's module graph keeps the rules docs/architecture.md draws: read from
/// `swift package dump-package` (swift is on PATH wherever the tests run).
struct ModuleGraphTests {
    /// The package folder: two above this file (Tests/PackageGraphTests/).
    static let packageFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The manifest as JSON. A scratch folder of its own, so it never waits for the lock of the build
    /// folder that `swift test` holds while the tests run.
    static func dumpPackage() throws -> Data {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-dump-package-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let errorFile = scratch.appendingPathComponent("stderr.txt")
        FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "--package-path", packageFolder.path, "--scratch-path", scratch.path, "dump-package"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorFile)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            throw GraphError("swift package dump-package exited \(process.terminationStatus): \(errors)")
        }
        return data
    }

    @Test func theModuleGraphKeepsTheHouseRules() throws {
        let graph = try ModuleGraph(dumpedPackage: try Self.dumpPackage())
        #expect(graph.targets["FleetInterface"] != nil, "the API module is a target")
        #expect(graph.targets["FleetEngine"] != nil)
        let violations = graph.violations()
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }

    /// docs/architecture.md lists every target with its direct dependencies as Package.swift declares them.
    /// `FLEET_UPDATE_DOCS=1 swift test --filter PackageGraphTests` rewrites the listing.
    @Test func theArchitectureDocumentListsEveryTargetAsPackageSwiftDeclaresIt() throws {
        let graph = try ModuleGraph(dumpedPackage: try Self.dumpPackage())
        let file = Self.packageFolder.appendingPathComponent("docs/architecture.md")
        let document = try String(contentsOf: file, encoding: .utf8)
        let listing = DependencyListing(graph: graph)
        let updated = try #require(listing.replacing(in: document),
                                   "docs/architecture.md has no \(DependencyListing.begin) … \(DependencyListing.end) block")
        if updated != document, ProcessInfo.processInfo.environment["FLEET_UPDATE_DOCS"] == "1" {
            try updated.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        #expect(updated == document, "docs/architecture.md's target listing is stale; run FLEET_UPDATE_DOCS=1 swift test --filter PackageGraphTests. Expected:\n\(listing.markdown)")
    }

    /// The listing names each target once, with what it depends on, and leaves out the common modules.
    @Test func theListingShowsDirectDependenciesWithoutTheCommonModules() {
        let graph = ModuleGraph([
            .init(name: "FleetErrors", path: "Core/FleetErrors", type: "regular", dependencies: []),
            .init(name: "FleetModel", path: "Core/FleetModel", type: "regular", dependencies: ["FleetErrors"]),
            .init(name: "Store", path: "Plugins/Stores/Store", type: "regular", dependencies: ["FleetModel", "CLib", "FleetErrors"]),
            .init(name: "CLib", path: "Plugins/System/CLib", type: "system", dependencies: []),
            .init(name: "tool", path: "Executables/tool", type: "executable", dependencies: ["Store"]),
            .init(name: "StoreTests", path: "Tests/StoreTests", type: "test", dependencies: ["Store"]),
        ])
        let text = DependencyListing(graph: graph).markdown
        #expect(text.contains("  FleetModel\n"), "\(text)")
        #expect(text.contains("  Store ──► CLib, FleetModel"), "\(text)")
        #expect(text.contains("  tool ──► Store"), "\(text)")
        #expect(!text.contains("StoreTests"))
        #expect(!text.contains("──► FleetErrors"))
        let document = "before\n\(DependencyListing.begin)\nold\n\(DependencyListing.end)\nafter"
        #expect(DependencyListing(graph: graph).replacing(in: document) == "before\n\(text)\nafter")
    }

    /// The rules find what they are there to find: a Core target on a C library or a plugin, an API
    /// client reaching the engine through another target, the API module growing a dependency, and a
    /// test target that is neither one module's unit tests nor a named suite.
    @Test func theRulesCatchEachKindOfBreach() {
        let graph = ModuleGraph([
            .init(name: "FleetErrors", path: "Core/FleetErrors", type: "regular", dependencies: []),
            .init(name: "FleetModel", path: "Core/FleetModel", type: "regular", dependencies: ["FleetErrors"]),
            .init(name: "FleetStore", path: "Core/FleetStore", type: "regular", dependencies: ["CSQLite"]),
            .init(name: "FleetEngine", path: "Core/FleetEngine", type: "regular", dependencies: ["FleetStore", "MemoryStore"]),
            .init(name: "FleetInterface", path: "Core/FleetInterface", type: "regular", dependencies: ["FleetModel", "FleetGeo"]),
            .init(name: "FleetGeo", path: "Core/FleetGeo", type: "regular", dependencies: []),
            .init(name: "FleetAuth", path: "Core/FleetAuth", type: "regular", dependencies: ["COpenSSL"]),
            .init(name: "FleetConsumer", path: "Core/FleetConsumer", type: "regular", dependencies: ["FleetInterface"]),
            .init(name: "CSQLite", path: "Plugins/System/CSQLite", type: "system", dependencies: []),
            .init(name: "COpenSSL", path: "Plugins/System/COpenSSL", type: "system", dependencies: []),
            .init(name: "MemoryStore", path: "Plugins/Stores/MemoryStore", type: "regular", dependencies: ["FleetStore"]),
            .init(name: "FleetREST", path: "Plugins/Transports/FleetREST", type: "regular", dependencies: ["FleetEngine"]),
            .init(name: "RESTClient", path: "Plugins/Transports/RESTClient", type: "regular", dependencies: ["FleetREST"]),
            .init(name: "FleetModelTests", path: "Tests/FleetModelTests", type: "test", dependencies: ["FleetModel"]),
            .init(name: "StoreTests", path: "Tests/StoreTests", type: "test", dependencies: ["MemoryStore"]),
            .init(name: "RouterTests", path: "Tests/RouterTests", type: "test", dependencies: ["FleetGeo"]),
            .init(name: "FleetGeoTests", path: "Tests/Geo", type: "test", dependencies: ["FleetModel"]),
        ])
        let violations = graph.violations()
        #expect(violations.contains("Core target FleetStore depends on the system library CSQLite (Plugins/System/CSQLite)"))
        #expect(violations.contains("Core target FleetEngine depends on the plugin MemoryStore (Plugins/Stores/MemoryStore)"))
        #expect(violations.contains("RESTClient depends on FleetEngine, directly or through another target"))
        #expect(violations.contains("RESTClient depends on FleetStore, directly or through another target"))
        #expect(violations.contains { $0.hasPrefix("FleetInterface depends on FleetGeo") })
        #expect(violations.contains("Core target FleetAuth depends on the system library COpenSSL (Plugins/System/COpenSSL)"))
        #expect(violations.contains("FleetREST depends on FleetEngine, directly or through another target"))
        #expect(violations.contains("FleetREST depends on FleetStore, directly or through another target"))
        #expect(!violations.contains { $0.hasPrefix("FleetConsumer") })
        #expect(violations.contains { $0.hasPrefix("the test target RouterTests is neither <Module>Tests of a module nor one of the named suites") })
        #expect(violations.contains("the test target FleetGeoTests does not depend on FleetGeo, the module it tests"))
        #expect(violations.contains("the test target FleetGeoTests is in Tests/Geo, not Tests/FleetGeoTests"))
        #expect(!violations.contains { $0.hasPrefix("the test target FleetModelTests") || $0.hasPrefix("the test target StoreTests") })
        #expect(violations.count == 11, "\(violations)")
    }
}
