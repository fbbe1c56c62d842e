import FleetEngine
import FleetErrors
import FleetInterface
import FleetSchemes
import MemoryStore
import Synchronization
import Testing

/// `TransportRegistry`: each scheme's factory gets the whole URL and the call's options; a URL no
/// scheme takes is INVALID_ARGUMENT naming `transport` and listing the schemes, as the store and
/// router registries do.
@Suite struct TransportRegistryTests {
    struct Options: Sendable { var label: String }

    static let opened = Mutex<[String]>([])

    static func registry() -> TransportRegistry<Options> {
        TransportRegistry([
            .init(name: "memory", pattern: "memory", summary: "an engine here", needsRest: false) { url, options in
                opened.withLock { $0.append("\(url.text) \(options.label)") }
                return Connection(api: Engine(store: MemoryStore()))
            },
            .init(name: "file", pattern: "file:PATH", summary: "a journal", needsRest: true) { url, options in
                opened.withLock { $0.append("\(url.text) \(options.label)") }
                return Connection(api: Engine(store: MemoryStore()))
            },
        ])
    }

    @Test func eachSchemeOpensWithTheWholeURLAndTheOptions() throws {
        let registry = Self.registry()
        Self.opened.withLock { $0 = [] }
        let connection = try registry.open("file:/tmp/journal", options: Options(label: "a"))
        #expect(connection.watcher != nil, "an engine can push a trip's changes")
        _ = try registry.open("memory", options: Options(label: "b"))
        #expect(Self.opened.withLock { $0 } == ["file:/tmp/journal a", "memory b"])
        #expect(registry.usage == "memory, file:PATH")
        // An empty URL is the registry's default, `memory`.
        _ = try registry.open("", options: Options(label: "c"))
        #expect(Self.opened.withLock { $0.last } == "memory c")
        #expect(registry.defaultURL == "memory")
    }

    @Test func aURLNoSchemeTakesListsTheSchemes() {
        let registry = Self.registry()
        for (url, text) in [("htp://localhost:8080", "unknown transport 'htp://localhost:8080'; use one of: memory, file:PATH"),
                            ("carrier-pigeon", "unknown transport 'carrier-pigeon'; use one of: memory, file:PATH"),
                            ("file:", "transport 'file:' needs more: file:PATH (a journal); use one of: memory, file:PATH"),
                            ("memory:x", "transport 'memory:x': memory takes nothing after it (an engine here); use one of: memory, file:PATH")] {
            do {
                _ = try registry.open(url, options: Options(label: ""))
                Issue.record("\(url) opened")
            } catch let error as FleetError {
                #expect(error.code == .invalidArgument, "\(url)")
                #expect(error.field == "transport", "\(url)")
                #expect(error.cause == ErrorCause.unknownScheme.id, "\(url)")
                #expect(error.message.contains(text), "\(url): \(error.message)")
            } catch {
                Issue.record("\(url): \(error)")
            }
        }
    }

    @Test func aSchemeRegisteredAgainReplacesTheFirst() throws {
        var registry = Self.registry()
        registry.register(.init(name: "memory", pattern: "memory", summary: "another", needsRest: false) { _, _ in
            throw FleetError.failedPrecondition("not here")
        })
        #expect(registry.schemes.map(\.name) == ["file", "memory"])
        #expect(throws: FleetError.self) { try registry.open("memory", options: Options(label: "")) }
    }
}
