import FleetErrors
import FleetKit
import FleetRouting
import FleetSchemes
import FleetTestSupport
import Testing
import FleetCatalogue

struct RouterRegistryTests {
    @Test func schemesOpenTheirRouters() throws {
        #expect(try Wiring.routers.open("straight").url == "straight")
        if let map = HelsinkiMap.directory {
            #expect(try Wiring.routers.open("routino:" + map).url == "routino:" + map)
        }
    }

    @Test func anUnknownURLListsTheSchemes() throws {
        for url in ["osrm://localhost", "routino", "straight:/tmp", "ROUTINO:/x"] {
            let error = try #require(throws: FleetError.self) { try Wiring.routers.open(url) }
            #expect(error.code == .invalidArgument, "\(url)")
            #expect(error.field == "router")
            #expect(error.cause == ErrorCause.unknownScheme.id)
            #expect(error.message.contains("straight") && error.message.contains("routino:DIR"), "\(error.message)")
        }
    }

    @Test func anEmptyURLIsTheDefaultStraight() throws {
        #expect(try Wiring.routers.open("").url == "straight")
        #expect(Wiring.routers.defaultURL == RouterRegistry.defaultRouterURL)
    }

    @Test func theFlagWinsOverTheEnvironmentWhichWinsOverStraight() throws {
        #expect(RouterRegistry.chosenURL(flag: "routino:/a", environment: ["FLEET_ROUTER": "routino:/b"]) == "routino:/a")
        #expect(RouterRegistry.chosenURL(flag: nil, environment: ["FLEET_ROUTER": "routino:/b"]) == "routino:/b")
        #expect(RouterRegistry.chosenURL(flag: "", environment: ["FLEET_ROUTER": ""]) == "straight")
        #expect(try Wiring.openRouter(nil, environment: [:]).url == "straight")
        let error = try #require(throws: FleetError.self) { try Wiring.openRouter(nil, environment: ["FLEET_ROUTER": "nowhere"]) }
        #expect(error.message.contains("'nowhere'"))
    }

    @Test func aMissingMapFolderIsAFailedPrecondition() throws {
        let error = try #require(throws: FleetError.self) { try Wiring.routers.open("routino:/nonexistent/map") }
        #expect(error.code == .failedPrecondition)
        #expect(error.cause == ErrorCause.routingMapUnavailable.id)
        #expect(error.message.contains("/nonexistent/map") && error.message.contains("make map"))
    }

    @Test func everyRouteCauseIsInTheCatalogue() {
        ProductCauses.install()
        #expect(FleetRoutingCauses.all.count == 5)
        for cause in [ErrorCause.routeNotFound, .pointOffMap, .unknownScheme, .routingMapUnavailable, .mapImportFailed, .routingToolsMissing] {
            #expect(ErrorCatalogue.cause(id: cause.id) == cause)
        }
        #expect(ErrorCause.routeNotFound.code == .notFound)
        #expect(ErrorCause.pointOffMap.code == .invalidArgument)
    }
}
