import Foundation

/// The package's targets and their dependencies on one another, as `swift package dump-package` prints them.
struct ModuleGraph {
    struct Target {
        let name: String
        let path: String
        let type: String
        let dependencies: [String]
    }

    let targets: [String: Target]

    init(_ targets: [Target]) {
        self.targets = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The graph from `dump-package`'s JSON.
    init(dumpedPackage json: Data) throws {
        guard let root = try JSONSerialization.jsonObject(with: json) as? [String: Any],
              let list = root["targets"] as? [[String: Any]] else {
            throw GraphError("dump-package printed no targets")
        }
        self.init(try list.map { target in
            guard let name = target["name"] as? String, let type = target["type"] as? String else {
                throw GraphError("a target without a name or type in \(target)")
            }
            let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency -> String? in
                for kind in ["byName", "target", "product"] {
                    if let parts = dependency[kind] as? [Any], let named = parts.first as? String { return named }
                }
                return nil
            }
            return Target(name: name, path: target["path"] as? String ?? "", type: type, dependencies: dependencies)
        })
    }

    /// Every target `name` depends on, directly or not.
    func closure(of name: String) -> Set<String> {
        var seen: Set<String> = []
        var next = targets[name]?.dependencies ?? []
        while let dependency = next.popLast() {
            guard seen.insert(dependency).inserted else { continue }
            next += targets[dependency]?.dependencies ?? []
        }
        return seen
    }

    /// What breaks the house rules of `ModuleRules`, one line each; empty when the graph keeps them.
    func violations(_ rules: ModuleRules = .house) -> [String] {
        var found: [String] = []
        for target in targets.values.sorted(by: { $0.name < $1.name }) where target.path.hasPrefix("Core/") {
            for dependency in target.dependencies {
                guard let used = targets[dependency] else { continue }
                if used.path.hasPrefix("Core/") { continue }
                if rules.coreExceptions.contains(ModuleRules.Edge(from: target.name, to: used.name)) { continue }
                let what = used.type == "system" ? "the system library" : "the plugin"
                found.append("Core target \(target.name) depends on \(what) \(used.name) (\(used.path))")
            }
        }
        // A product's code lives outside Tests/: no executable reaches a library kept with the tests.
        for target in targets.values.sorted(by: { $0.name < $1.name }) where target.type == "executable" {
            if target.path.hasPrefix("Tests/") { found.append("the executable \(target.name) is under Tests/ (\(target.path))") }
            for name in closure(of: target.name).sorted() {
                if let used = targets[name], used.path.hasPrefix("Tests/") {
                    found.append("the executable \(target.name) depends on \(used.name), which is under Tests/ (\(used.path))")
                }
            }
        }
        // A test target is one module's unit tests (`<Module>Tests` in `Tests/<Module>Tests`, depending
        // on that module) or one of the suites named for what they are.
        for target in targets.values.sorted(by: { $0.name < $1.name }) where target.type == "test" {
            if rules.namedSuites[target.name] != nil { continue }
            guard target.name.hasSuffix("Tests"), let module = targets[String(target.name.dropLast("Tests".count))], module.type != "test" else {
                found.append("the test target \(target.name) is neither <Module>Tests of a module nor one of the named suites "
                             + "(\(rules.namedSuites.keys.sorted().joined(separator: ", ")))")
                continue
            }
            if !target.dependencies.contains(module.name) {
                found.append("the test target \(target.name) does not depend on \(module.name), the module it tests")
            }
            if target.path != "Tests/\(target.name)" {
                found.append("the test target \(target.name) is in \(target.path), not Tests/\(target.name)")
            }
        }
        for (client, forbidden) in rules.forbidden.sorted(by: { $0.key < $1.key }) {
            let reached = closure(of: client)
            for name in forbidden.sorted() where reached.contains(name) {
                found.append("\(client) depends on \(name), directly or through another target")
            }
        }
        for (target, allowed) in rules.onlyOn {
            for dependency in targets[target]?.dependencies ?? [] where !allowed.contains(dependency) {
                found.append("\(target) depends on \(dependency); it may depend only on \(allowed.sorted().joined(separator: ", "))")
            }
        }
        return found
    }
}

/// The module graph's rules (docs/architecture.md): Core holds protocols and values and knows no C
/// library and no plugin; the API's clients know the API, not the engine behind it.
struct ModuleRules {
    struct Edge: Hashable {
        let from: String
        let to: String
    }

    /// Core targets' dependencies outside Core that are allowed anyway (none in the house rules).
    var coreExceptions: Set<Edge>
    /// Targets that must not reach these targets, even through others.
    var forbidden: [String: Set<String>]
    /// Targets that may depend only on these.
    var onlyOn: [String: Set<String>]
    /// The test targets that are not one module's unit tests, each with what kind of suite it is.
    var namedSuites: [String: String]

    static let house = ModuleRules(
        coreExceptions: [],
        // The REST mapping and the clients know the API's method table, not the engine, the store or
        // the authorization behind it.
        forbidden: ["RESTClient": ["FleetEngine", "FleetStore", "FleetAuth"], "FleetConsumer": ["FleetEngine", "FleetStore"],
                    "FleetREST": ["FleetEngine", "FleetStore", "FleetAuth"]],
        onlyOn: ["FleetInterface": ["FleetErrors", "FleetModel", "FleetConcurrency", "FleetSchemes"],
                 // The one scheme registry knows URLs and errors, nothing it opens.
                 "FleetSchemes": ["FleetErrors"],
                 // The small bottom modules, one of each small thing, depend on nothing of ours.
                 "FleetJSON": [], "FleetRandom": [], "FleetBackoff": [], "FleetConcurrency": [], "HTTPCore": []],
        namedSuites: [
            "FleetAdminTests": "end-to-end: fleet-admin, its commands and `serve`, run as the built binary",
            "ConsumerFollowTests": "end-to-end: consumer-follow run as the built binary against a server",
            "DriverReportTests": "end-to-end: driver-report run as the built binary against a server",
            "MapPageTests": "end-to-end: the map pages of a running `fleet-admin serve`, in a browser",
            "ExecutableTests": "end-to-end: what every executable shares (--version, completions, error-explain, fleet-bench)",
            "TransportTests": "contract and end-to-end: the API run over every transport, and a running server over the wire",
            "StoreTests": "contract: one suite run against every store, with what each store does beyond it",
            "FuzzCorpusTests": "the fuzz targets over their committed corpus",
            "PackageGraphTests": "the package itself: its module graph and its sources",
            "FleetBenchTests": "unit: fleet-bench's own code (what it writes to a machine's cgroup), through @testable import",
        ])
}

struct GraphError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
