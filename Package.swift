// swift-tools-version: 6.0
// A self-hostable trip and vehicle tracking engine modelled on Google's Fleet Engine (on-demand rides).
// No Swift package dependencies: system C libraries only, each behind a systemLibrary target.
import PackageDescription

let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "FleetEngine",
    products: [
        .executable(name: "error-explain", targets: ["error-explain"]),
        .executable(name: "fleet-admin", targets: ["fleet-admin"]),
        .executable(name: "consumer-follow", targets: ["consumer-follow"]),
        .executable(name: "driver-report", targets: ["driver-report"]),
    ],
    targets: [
        // MARK: System libraries (Plugins/System): one target per C library, shims for variadic C calls.
        .systemLibrary(name: "CSQLite", path: "Plugins/System/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCurl", path: "Plugins/System/CCurl", pkgConfig: "libcurl",
                       providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "CCurlShim", dependencies: ["CCurl"], path: "Plugins/System/CCurlShim"),
        .systemLibrary(name: "COpenSSL", path: "Plugins/System/COpenSSL", pkgConfig: "openssl",
                       providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CRoutino", path: "Plugins/System/CRoutino", providers: [.apt(["libroutino-dev"])]),
        .systemLibrary(name: "CLibPQ", path: "Plugins/System/CLibPQ", pkgConfig: "libpq",
                       providers: [.apt(["libpq-dev"])]),
        // gRPC's C core by name, not through grpc.pc: SwiftPM expands that file's abseil Requires: tree without
        // removing duplicates, and the link line outgrows the system's argument limit.
        .systemLibrary(name: "CGRPC", path: "Plugins/System/CGRPC", providers: [.apt(["libgrpc-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", path: "Plugins/System/CMicroHTTPD", pkgConfig: "libmicrohttpd",
                       providers: [.apt(["libmicrohttpd-dev"])]),

        // MARK: Bottom modules: one of each small thing, depending on nothing of ours.
        .target(name: "FleetRandom", path: "Core/FleetRandom", swiftSettings: strict),
        .target(name: "FleetBackoff", path: "Core/FleetBackoff", swiftSettings: strict),
        .target(name: "FleetConcurrency", path: "Core/FleetConcurrency", swiftSettings: strict),
        .target(name: "FleetJSON", path: "Core/FleetJSON", swiftSettings: strict),

        // MARK: Core: protocols and values.
        .target(name: "FleetErrors", dependencies: ["FleetJSON"], path: "Core/FleetErrors", swiftSettings: strict),
        .target(name: "FleetModel", dependencies: ["FleetErrors", "FleetJSON"], path: "Core/FleetModel",
                exclude: ["Generator"], swiftSettings: strict),
        .target(name: "FleetGeo", path: "Core/FleetGeo", swiftSettings: strict),
        // The one registry of URL schemes (stores, transports, routers).
        .target(name: "FleetSchemes", dependencies: ["FleetErrors"], path: "Core/FleetSchemes", swiftSettings: strict),
        // The API as an interface: FleetAPI, its watches, the trip lifecycle, the transport registry.
        .target(name: "FleetInterface", dependencies: ["FleetErrors", "FleetModel", "FleetConcurrency", "FleetSchemes"], path: "Core/FleetInterface",
                exclude: ["Generator"],
                swiftSettings: strict),
        .target(name: "FleetStore", dependencies: ["FleetErrors", "FleetSchemes", "FleetConcurrency"], path: "Core/FleetStore", swiftSettings: strict),
        .target(name: "FleetCLI", dependencies: ["FleetErrors", "FleetConcurrency"], path: "Core/FleetCLI", swiftSettings: strict),
        .target(name: "FleetAuth", dependencies: ["FleetErrors", "FleetModel", "FleetInterface"], path: "Core/FleetAuth",
                swiftSettings: strict),
        .target(name: "FleetLocation", dependencies: ["FleetErrors", "FleetModel", "FleetGeo", "FleetConcurrency"],
                path: "Core/FleetLocation", swiftSettings: strict),
        .target(name: "FleetDriver", dependencies: ["FleetErrors", "FleetModel", "FleetInterface", "FleetGeo", "FleetLocation", "FleetRouting", "FleetRandom", "FleetBackoff", "FleetConcurrency"],
                path: "Core/FleetDriver", swiftSettings: strict),
        .target(name: "FleetConsumer", dependencies: ["FleetErrors", "FleetModel", "FleetGeo", "FleetInterface", "FleetCLI", "FleetBackoff", "FleetConcurrency"],
                path: "Core/FleetConsumer", swiftSettings: strict),
        .target(name: "FleetEngine", dependencies: ["FleetErrors", "FleetModel", "FleetInterface", "FleetGeo", "FleetLearning", "FleetStore", "FleetRouting", "FleetConcurrency"],
                path: "Core/FleetEngine", swiftSettings: strict),
        .target(name: "FleetRouting", dependencies: ["FleetErrors", "FleetGeo", "FleetSchemes"], path: "Core/FleetRouting", swiftSettings: strict),
        .target(name: "FleetOperator", dependencies: ["FleetErrors", "FleetModel", "FleetInterface", "FleetCLI", "FleetGeo", "FleetLocation"],
                path: "Core/FleetOperator", swiftSettings: strict),
        .target(name: "FleetLearning", dependencies: ["FleetGeo"], path: "Core/FleetLearning", swiftSettings: strict),
        .target(name: "FleetEvaluation", dependencies: ["FleetErrors", "FleetModel", "FleetGeo", "FleetLearning", "FleetDriver", "FleetRandom"],
                path: "Core/FleetEvaluation", swiftSettings: strict),

        // MARK: Plugins: JWT signatures (RS256, HS256) on OpenSSL, behind FleetAuth's JWTSigner.
        .target(name: "OpenSSLJWT", dependencies: ["FleetAuth", "FleetErrors", "COpenSSL"], path: "Plugins/Auth/OpenSSLJWT",
                swiftSettings: strict),

        // MARK: Plugins: stores.
        .target(name: "MemoryStore", dependencies: ["FleetStore", "FleetErrors", "FleetSchemes", "FleetConcurrency"], path: "Plugins/Stores/MemoryStore", swiftSettings: strict),
        .target(name: "FileIO", dependencies: ["FleetErrors"], path: "Plugins/FileIO", swiftSettings: strict),
        .target(name: "FileStore", dependencies: ["FleetErrors", "FleetStore", "FileIO", "FleetConcurrency", "FleetSchemes"], path: "Plugins/Stores/FileStore", swiftSettings: strict),
        .target(name: "CSQLiteShim", dependencies: ["CSQLite"], path: "Plugins/System/CSQLiteShim"),
        .target(name: "SQLiteStore", dependencies: ["FleetStore", "FleetErrors", "CSQLite", "CSQLiteShim", "FleetConcurrency", "FleetSchemes"], path: "Plugins/Stores/SQLiteStore", swiftSettings: strict),
        .target(name: "PostgresStore", dependencies: ["FleetStore", "FleetErrors", "CLibPQ", "FleetConcurrency", "FleetSchemes"], path: "Plugins/Stores/PostgresStore", swiftSettings: strict),

        // MARK: Plugins: routers.
        .target(name: "StraightRouter", dependencies: ["FleetRouting", "FleetGeo", "FleetErrors", "FleetSchemes"],
                path: "Plugins/Routers/StraightRouter", swiftSettings: strict),
        .target(name: "RoutinoRouter", dependencies: ["FleetRouting", "FleetGeo", "FleetErrors", "CRoutino", "FleetSchemes", "FleetConcurrency"],
                path: "Plugins/Routers/RoutinoRouter", swiftSettings: strict),

        // MARK: Plugins: transports.
        .target(name: "HTTPCore", path: "Plugins/Transports/HTTPCore", swiftSettings: strict),
        .target(name: "CMicroHTTPDShim", dependencies: ["CMicroHTTPD"], path: "Plugins/System/CMicroHTTPDShim"),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "CMicroHTTPDShim", "FleetErrors", "HTTPCore", "FleetJSON", "FleetConcurrency"],
                path: "Plugins/Transports/HTTPServer", swiftSettings: strict),
        .target(name: "GRPCServer", dependencies: ["CGRPC", "FleetConcurrency", "FleetErrors"],
                path: "Plugins/Transports/GRPCServer", swiftSettings: strict),
        .target(name: "HTTPClient", dependencies: ["CCurl", "CCurlShim", "FleetErrors", "HTTPCore", "FleetConcurrency", "FleetBackoff"],
                path: "Plugins/Transports/HTTPClient", swiftSettings: strict),

        .target(name: "FleetREST", dependencies: ["FleetErrors", "FleetModel", "FleetInterface"],
                path: "Plugins/Transports/FleetREST", swiftSettings: strict),

        .target(name: "RESTClient", dependencies: ["FleetErrors", "FleetModel", "FleetInterface", "FleetREST", "HTTPClient", "FleetConcurrency", "FleetSchemes"],
                path: "Plugins/Transports/RESTClient", swiftSettings: strict),

        // The map pages' own HTML, CSS and JS are built into the binary (embedInCode): nothing to install beside it.
        .target(name: "MapPages", dependencies: ["FleetErrors", "FleetModel", "HTTPServer", "HTTPCore"], path: "Plugins/Transports/MapPages",
                resources: [.embedInCode("Assets/page.html"), .embedInCode("Assets/map.css"), .embedInCode("Assets/map-common.js"),
                            .embedInCode("Assets/rider.js"), .embedInCode("Assets/operator.js"), .embedInCode("Assets/tracking.js")],
                swiftSettings: strict),

        .target(name: "APIServer", dependencies: ["FleetErrors", "FleetModel", "FleetInterface", "FleetREST", "FleetEngine", "FleetAuth",
                                                   "FleetStore", "FleetLearning", "HTTPServer", "MapPages", "GRPCServer", "OpenSSLJWT", "FleetConcurrency"],
                path: "Plugins/Transports/APIServer", swiftSettings: strict),

        .target(name: "JournalTransport", dependencies: ["FleetErrors", "FleetModel", "FleetInterface", "FleetEngine", "MemoryStore", "FileIO", "FleetConcurrency", "FleetSchemes"],
                path: "Plugins/Transports/JournalTransport", swiftSettings: strict),

        // MARK: Wiring: URLs to stores, transports and routers.
        .target(name: "FleetKit", dependencies: ["FleetInterface", "FleetEngine", "FleetStore", "MemoryStore", "FileStore", "SQLiteStore",
                                                 "PostgresStore", "RESTClient", "JournalTransport", "FleetAuth", "HTTPClient",
                                                 "FleetRouting", "StraightRouter", "RoutinoRouter", "FleetCLI", "FleetSchemes"],
                path: "Plugins/FleetKit", swiftSettings: strict),

        // MARK: Wiring: every module's error causes composed into the one catalogue.
        .target(name: "FleetCatalogue", dependencies: ["FleetErrors", "FleetSchemes", "FleetAuth", "FleetModel", "FleetEngine", "HTTPClient",
                                                       "HTTPServer", "JournalTransport", "APIServer", "FleetStore", "PostgresStore",
                                                       "FileStore", "FleetLocation", "FleetEvaluation", "FleetRouting", "FleetOperator"],
                path: "Plugins/FleetCatalogue", swiftSettings: strict),

        // MARK: Executables.
        .executableTarget(name: "fleet-bench", dependencies: ["FleetGeo", "FleetStore", "MemoryStore", "FileStore", "SQLiteStore",
                                                            "CSQLite", "FleetEngine", "FleetInterface", "FleetModel", "RESTClient", "HTTPServer", "FleetConcurrency",
                                                            "FleetCLI", "FleetErrors", "FleetEvaluation", "FleetLearning", "FleetRouting", "RoutinoRouter", "StraightRouter", "FleetKit",
                                                            "HTTPClient", "FleetRandom", "FleetCatalogue", "PostgresStore", "CLibPQ", "APIServer", "FleetBackoff",
                                                            "ThrowawayPostgres", "FleetOperator"],
                          path: "Executables/fleet-bench", swiftSettings: strict),
        // A throwaway PostgreSQL cluster (initdb, pg_ctl), which fleet-bench and the tests start.
        .target(name: "ThrowawayPostgres", path: "Executables/ThrowawayPostgres", swiftSettings: strict),
        // What the helper executables the tests run (journal-writer, store-writer) share: their command line.
        .target(name: "HelperSupport", dependencies: ["FleetCLI"], path: "Executables/HelperSupport", swiftSettings: strict),
        .executableTarget(name: "journal-writer", dependencies: ["JournalTransport", "FleetModel", "FleetErrors", "FleetCLI", "HelperSupport"],
                          path: "Executables/journal-writer", swiftSettings: strict),
        .executableTarget(name: "store-writer", dependencies: ["FleetErrors", "FleetStore", "SQLiteStore", "FleetCLI", "HelperSupport"],
                          path: "Executables/store-writer", swiftSettings: strict),
        .executableTarget(name: "store-crasher", dependencies: ["FleetErrors", "FleetStore", "FileStore", "SQLiteStore", "FleetRandom", "FleetCLI"],
                          path: "Executables/store-crasher", swiftSettings: strict),
        .executableTarget(name: "driver-report", dependencies: ["FleetErrors", "FleetModel", "FleetInterface", "FleetGeo", "FleetCLI", "FleetLocation",
                                                              "FleetDriver", "FleetKit", "FleetAuth", "FleetRouting", "FleetBackoff", "FleetCatalogue", "FleetConcurrency"],
                          path: "Executables/driver-report", swiftSettings: strict),
        .executableTarget(name: "consumer-follow", dependencies: ["FleetConsumer", "FleetInterface", "FleetKit", "FleetAuth", "FleetCLI", "FleetErrors",
                                                                "FleetModel", "FleetCatalogue", "FleetConcurrency"],
                          path: "Executables/consumer-follow", swiftSettings: strict),
        .executableTarget(name: "fleet-admin", dependencies: ["FleetCLI", "FleetErrors", "FleetModel", "FleetInterface", "FleetEngine", "FleetKit", "FleetStore",
                                                            "FleetAuth", "JournalTransport", "APIServer", "FleetGeo", "FleetRouting", "RoutinoRouter", "MapPages", "OpenSSLJWT", "FleetCatalogue", "FleetOperator",
                                                            "FleetLearning", "FleetEvaluation", "FleetConcurrency"],
                          path: "Executables/fleet-admin", swiftSettings: strict),
        .executableTarget(name: "error-explain", dependencies: ["FleetErrors", "FleetCLI", "FleetCatalogue"],
                          path: "Executables/error-explain", swiftSettings: strict),

        // MARK: Fuzzing (docs/fuzzing.md; the corpus is under Tests/Fuzz/corpus): the targets as a library; fleet-fuzz replays inputs, or is a
        // libFuzzer binary when `make fuzz` builds it with --sanitize fuzzer -Xswiftc -DFUZZING.
        .target(name: "FleetFuzzTargets", dependencies: ["OpenSSLJWT", "FleetModel", "FleetErrors", "FleetGeo", "FleetEngine", "MemoryStore",
                                                         "FleetAuth", "FleetREST", "FleetLocation", "FleetInterface"],
                path: "Executables/FleetFuzzTargets", swiftSettings: strict),
        .executableTarget(name: "fleet-fuzz", dependencies: ["FleetFuzzTargets"], path: "Executables/fleet-fuzz", swiftSettings: strict),

        // MARK: Tests.
        .target(name: "FleetTestSupport", dependencies: ["FleetAuth", "OpenSSLJWT", "FleetRouting", "FleetGeo", "FleetErrors", "FleetRandom", "ThrowawayPostgres"],
                path: "Tests/TestSupport", swiftSettings: strict),
        .testTarget(name: "TransportTests", dependencies: ["FleetTestSupport", "FleetEngine", "FleetInterface", "FleetModel", "FleetErrors",
                                                           "FleetAuth", "MemoryStore", "RESTClient", "HTTPClient", "JournalTransport", "OpenSSLJWT", "FleetRandom",
                                                           "FleetConcurrency"], path: "Tests/TransportTests"),
        .testTarget(name: "FleetErrorsTests", dependencies: ["FleetErrors", "FleetCatalogue", "FleetJSON"], path: "Tests/FleetErrorsTests"),
        .testTarget(name: "FleetConcurrencyTests", dependencies: ["FleetConcurrency"], path: "Tests/FleetConcurrencyTests"),
        .testTarget(name: "FleetModelTests", dependencies: ["FleetModel"], path: "Tests/FleetModelTests"),
        .testTarget(name: "FleetGeoTests", dependencies: ["FleetGeo", "FleetRandom"], path: "Tests/FleetGeoTests"),
        .testTarget(name: "FleetLearningTests", dependencies: ["FleetLearning", "FleetGeo"], path: "Tests/FleetLearningTests"),
        .testTarget(name: "FleetEvaluationTests", dependencies: ["FleetEvaluation", "FleetLearning", "FleetGeo", "FleetErrors", "FleetTestSupport"],
                    path: "Tests/FleetEvaluationTests"),
        .testTarget(name: "FleetCLITests", dependencies: ["FleetCLI", "FleetErrors"], path: "Tests/FleetCLITests"),
        .testTarget(name: "StoreTests", dependencies: ["FleetTestSupport", "FleetStore", "FleetErrors", "MemoryStore", "FileStore", "SQLiteStore", "CSQLite",
                                                       "PostgresStore", "FleetRandom", "FleetConcurrency"],
                    path: "Tests/StoreTests"),
        .testTarget(name: "FleetAuthTests", dependencies: ["OpenSSLJWT", "FleetAuth", "FleetModel", "FleetErrors", "FleetInterface"],
                    path: "Tests/FleetAuthTests", exclude: ["Fixtures"]),
        .testTarget(name: "FleetEngineTests", dependencies: ["FleetEngine", "FleetInterface", "FleetRouting", "MemoryStore", "SQLiteStore", "PostgresStore",
                                                             "FleetTestSupport", "FleetConcurrency"], path: "Tests/FleetEngineTests"),
        .testTarget(name: "JournalTransportTests",
                    dependencies: ["JournalTransport", "FleetEngine", "FleetInterface", "FleetModel", "FleetErrors", "MemoryStore", "FleetTestSupport",
                                   "FleetConcurrency"],
                    path: "Tests/JournalTransportTests"),
        .testTarget(name: "HTTPCoreTests", dependencies: ["HTTPCore"], path: "Tests/HTTPCoreTests"),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "FleetErrors", "HTTPCore"], path: "Tests/HTTPServerTests"),
        .testTarget(name: "GRPCServerTests", dependencies: ["GRPCServer", "FleetErrors"], path: "Tests/GRPCServerTests"),
        .testTarget(name: "HTTPClientTests", dependencies: ["HTTPClient", "FleetErrors", "FleetRandom", "HTTPCore", "FleetConcurrency"], path: "Tests/HTTPClientTests"),
        .testTarget(name: "FleetAdminTests", dependencies: ["fleet-admin", "FleetTestSupport", "FleetCLI", "FleetErrors", "FleetModel", "FleetInterface", "FleetEngine",
                                                            "FleetAuth", "JournalTransport", "MemoryStore", "OpenSSLJWT", "FleetOperator", "FleetGeo",
                                                            "FleetRouting", "RoutinoRouter"],
                    path: "Tests/FleetAdminTests"),
        .testTarget(name: "FleetLocationTests", dependencies: ["FleetLocation", "FleetModel", "FleetGeo", "FleetErrors", "FleetConcurrency"],
                    path: "Tests/FleetLocationTests"),
        .testTarget(name: "FleetDriverTests", dependencies: ["FleetDriver", "FleetLocation", "FleetModel", "FleetInterface", "FleetGeo", "FleetErrors", "FleetRouting",
                                                             "FleetEngine", "MemoryStore", "FleetRandom", "FleetBackoff"], path: "Tests/FleetDriverTests"),
        .testTarget(name: "DriverReportTests", dependencies: ["FleetModel", "FleetErrors", "FleetEngine", "FleetInterface", "FleetGeo", "FleetKit",
                                                              "CSQLite", "FleetTestSupport"], path: "Tests/DriverReportTests"),
        .testTarget(name: "FleetConsumerTests", dependencies: ["FleetConsumer", "FleetEngine", "FleetInterface", "FleetModel", "FleetErrors", "FleetGeo",
                                                               "FleetCLI", "FleetKit", "MemoryStore", "FleetConcurrency"], path: "Tests/FleetConsumerTests"),
        .testTarget(name: "ConsumerFollowTests", dependencies: ["FleetEngine", "FleetInterface", "FleetModel", "FleetErrors", "FleetGeo", "SQLiteStore",
                                                                "JournalTransport", "FleetTestSupport", "FleetAuth"],
                    path: "Tests/ConsumerFollowTests"),
        .testTarget(name: "MapPageTests", dependencies: ["FleetTestSupport", "FleetEngine", "FleetInterface", "FleetModel", "SQLiteStore",
                                                         "FleetGeo", "FleetLearning"],
                    path: "Tests/MapPageTests"),
        .testTarget(name: "FleetBackoffTests", dependencies: ["FleetBackoff"], path: "Tests/FleetBackoffTests"),
        .testTarget(name: "FleetInterfaceTests", dependencies: ["FleetInterface", "FleetEngine", "FleetErrors", "FleetSchemes", "MemoryStore", "FleetTestSupport"],
                    path: "Tests/FleetInterfaceTests"),
        .testTarget(name: "APIServerTests", dependencies: ["APIServer", "FleetREST", "FleetAuth", "FleetInterface", "FleetModel", "FleetErrors",
                                                           "JournalTransport"], path: "Tests/APIServerTests"),
        .testTarget(name: "FleetKitTests", dependencies: ["FleetKit", "FleetCLI", "FleetErrors", "FleetModel", "FleetRouting", "FleetSchemes",
                                                          "FleetCatalogue", "FleetTestSupport"], path: "Tests/FleetKitTests"),
        .testTarget(name: "FleetRoutingTests", dependencies: ["FleetRouting", "StraightRouter", "FleetGeo", "FleetErrors", "FleetTestSupport"],
                    path: "Tests/FleetRoutingTests"),
        .testTarget(name: "StraightRouterTests", dependencies: ["StraightRouter", "FleetRouting", "FleetGeo", "FleetErrors"], path: "Tests/StraightRouterTests"),
        .testTarget(name: "RoutinoRouterTests", dependencies: ["RoutinoRouter", "FleetRouting", "FleetGeo", "FleetErrors", "FleetTestSupport"],
                    path: "Tests/RoutinoRouterTests"),
        .testTarget(name: "FuzzCorpusTests", dependencies: ["FleetFuzzTargets", "FleetTestSupport"], path: "Tests/Fuzz/CorpusTests"),
        // The module graph's rules (docs/architecture.md), checked on `swift package dump-package`.
        .testTarget(name: "PackageGraphTests", path: "Tests/PackageGraphTests"),
        .testTarget(name: "ExecutableTests", dependencies: ["FleetErrors", "FleetCatalogue", "FleetTestSupport"], path: "Tests/ExecutableTests"),
        .testTarget(name: "FleetBenchTests", dependencies: ["fleet-bench"], path: "Tests/FleetBenchTests"),
    ],
    swiftLanguageModes: [.v6]
)
