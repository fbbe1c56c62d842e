import FleetAuth
import FleetConcurrency
import FleetEngine
import FleetErrors
import FleetInterface
import FleetModel
import FleetTestSupport
import Foundation
import RESTClient
import Testing
import OpenSSLJWT

/// Every role × every method against a real `fleet-admin serve --jwt-secret-file`, on the caller's
/// own resource and on another's; plus expired, wrongly signed and missing tokens.
@Suite(.serialized) struct AuthMatrixTests {
    static let provider = "authz"
    static let parent = "providers/\(provider)"

    /// Started once for the suite: a server with an HS256 secret, and a fleet to call against.
    final class World: @unchecked Sendable {
        let server: ServerProcess
        let secret: [UInt8]
        let directory: URL
        init() throws {
            directory = try Products.temporaryDirectory("authz")
            secret = (0..<48).map { _ in UInt8.random(in: 33...126) }
            let file = directory.appendingPathComponent("secret")
            try Data(secret).write(to: file)
            server = try ServerProcess(store: "memory", arguments: ["--jwt-secret-file", "\(provider)=\(file.path)"])
            let admin = try client(role: .server)
            for id in ["v1", "v2"] {
                _ = try admin.createVehicle(CreateVehicleRequest(parent: parent, vehicleId: id, vehicle: Vehicle(
                    vehicleState: .online, supportedTripTypes: [.exclusive],
                    lastLocation: VehicleLocation(location: LatLng(latitude: 52.52, longitude: 13.40)),
                    maximumCapacity: 4, vehicleType: VehicleType(category: .auto))))
            }
            for (trip, vehicle) in [("t1", "v1"), ("t2", "v2")] {
                _ = try admin.createTrip(CreateTripRequest(parent: parent, tripId: trip, trip: Trip(
                    vehicleId: vehicle, tripType: .exclusive,
                    pickupPoint: TerminalLocation(point: LatLng(latitude: 52.53, longitude: 13.41)))))
            }
        }

        func token(role: Role, clock: @escaping EpochClock = systemEpochClock, secret: [UInt8]? = nil) throws -> String {
            let minter = TokenMinter(key: try .hs256(secret: secret ?? self.secret), clock: clock)
            switch role {
            case .server, .fleetReader: return try minter.mint(role: role)
            case .driver, .trustedDriver: return try minter.mint(role: role, vehicleID: "v1")
            case .consumer: return try minter.mint(role: role, tripID: "t1")
            }
        }

        func client(role: Role) throws -> RESTClient {
            let token = try self.token(role: role)
            return try RESTClient(baseURL: server.url, token: { _ in token }, retry: .never)
        }

        deinit { try? FileManager.default.removeItem(at: directory) }
    }

    static let world = Result { try World() }

    /// Whether `role` may call `method` on its own resource (vehicle v1 / trip t1) and on another's.
    static func expected(_ role: Role, _ method: FleetMethod) -> (own: Bool, other: Bool) {
        switch (role, method) {
        case (.server, _): return (true, true)
        case (.fleetReader, let m): return m.isReadOnly ? (true, true) : (false, false)
        case (.driver, .getVehicle), (.driver, .updateVehicle): return (true, false)
        case (.consumer, .getTrip), (.consumer, .watchTrip): return (true, false)
        default: return (false, false)
        }
    }

    /// Makes one call of `method` on the caller's own resource (`own`) or someone else's.
    static func call(_ method: FleetMethod, own: Bool, api: RESTClient) throws {
        let vehicle = "\(parent)/vehicles/\(own ? "v1" : "v2")"
        let trip = "\(parent)/trips/\(own ? "t1" : "t2")"
        let fresh = "x\(UInt32.random(in: 0...UInt32.max))"
        switch method {
        case .createVehicle:
            _ = try api.createVehicle(CreateVehicleRequest(parent: parent, vehicleId: fresh, vehicle: Vehicle(
                vehicleState: .offline, supportedTripTypes: [.exclusive], maximumCapacity: 1, vehicleType: VehicleType(category: .auto))))
        case .getVehicle: _ = try api.getVehicle(GetVehicleRequest(name: vehicle))
        case .updateVehicle:
            _ = try api.updateVehicle(UpdateVehicleRequest(name: vehicle, vehicle: Vehicle(
                lastLocation: VehicleLocation(location: LatLng(latitude: 52.521, longitude: 13.401))), updateMask: ["lastLocation"]))
        case .updateVehicleAttributes:
            _ = try api.updateVehicleAttributes(UpdateVehicleAttributesRequest(
                name: vehicle, attributes: [VehicleAttribute(key: "k", vehicleAttributeValue: .stringValue("v"))]))
        case .listVehicles: _ = try api.listVehicles(ListVehiclesRequest(parent: parent, vehicleTypeCategories: [.auto]))
        case .searchVehicles:
            _ = try api.searchVehicles(SearchVehiclesRequest(
                parent: parent, pickupPoint: TerminalLocation(point: LatLng(latitude: 52.52, longitude: 13.40)),
                pickupRadiusMeters: 1000, count: 5, minimumCapacity: 1, tripTypes: [.exclusive],
                vehicleTypes: [VehicleType(category: .auto)], orderBy: .pickupPointEta, currentTripsPresent: .any))
        case .deleteVehicle:
            do { try api.deleteVehicle(DeleteVehicleRequest(name: "\(parent)/vehicles/\(fresh)")) } catch let e as FleetError where e.code == .notFound {}
        case .createTrip:
            _ = try api.createTrip(CreateTripRequest(parent: parent, tripId: fresh, trip: Trip(
                tripType: .exclusive, pickupPoint: TerminalLocation(point: LatLng(latitude: 1, longitude: 1)))))
        case .getTrip: _ = try api.getTrip(GetTripRequest(name: trip))
        case .updateTrip:
            _ = try api.updateTrip(UpdateTripRequest(name: trip, trip: Trip(attributes: [TripAttribute(key: "k", tripAttributeValue: .stringValue("v"))]),
                                                     updateMask: ["attributes"]))
        case .searchTrips: _ = try api.searchTrips(SearchTripsRequest(parent: parent))
        case .deleteTrip:
            do { try api.deleteTrip(DeleteTripRequest(name: "\(parent)/trips/\(fresh)")) } catch let e as FleetError where e.code == .notFound {}
        case .reportBillableTrip:
            try api.reportBillableTrip(ReportBillableTripRequest(name: "\(parent)/billableTrips/\(fresh)", countryCode: "DE"))
        case .watchTrip:
            let cancellation = Cancellation()
            try api.watchTrip(GetTripRequest(name: trip), cancellation: cancellation) { _ in cancellation.cancel() }
        default:
            Issue.record("no call of \(method) in this test")
        }
    }

    @Test(arguments: Role.allCases, FleetMethod.allCases.filter { [.vehicle, .trip].contains($0.resource) })
    func roleMayCallMethodOnlyAsTheMatrixSays(role: Role, method: FleetMethod) throws {
        let world = try Self.world.get()
        let api = try world.client(role: role)
        let expected = Self.expected(role, method)
        for own in [true, false] {
            let allowed = own ? expected.own : expected.other
            do {
                try Self.call(method, own: own, api: api)
                #expect(allowed, "\(role) \(method) on \(own ? "its own" : "another") resource succeeded but should be denied")
            } catch let error as FleetError {
                if allowed {
                    Issue.record("\(role) \(method) on \(own ? "its own" : "another") resource: \(error)")
                } else {
                    // A denial is 403, except a token without the trip ID its role needs (a driver token
                    // reading a trip), which the Consumer SDK guide answers 401.
                    let withoutTripID = Authorizer.access(of: role, to: method) == .ownTrip && role == .driver
                    #expect(error.code == (withoutTripID ? .unauthenticated : .permissionDenied), "\(role) \(method): \(error)")
                }
            }
        }
    }

    @Test func aConsumerTokenForTripAReadingTripBIsPermissionDenied() throws {
        let world = try Self.world.get()
        let api = try world.client(role: .consumer)
        #expect(throws: FleetError.self) { _ = try api.getTrip(GetTripRequest(name: "\(Self.parent)/trips/t2")) }
        do {
            _ = try api.getTrip(GetTripRequest(name: "\(Self.parent)/trips/t2"))
        } catch let error as FleetError {
            #expect(error.code == .permissionDenied)
            #expect(error.message.contains("another trip"))
        }
    }

    /// A driver token (vehicle v1) reading the trip its vehicle serves: 401 UNAUTHENTICATED with a
    /// Google error body, as the Consumer SDK guide answers a JWT signed without a trip ID.
    @Test func aDriverReadingItsVehiclesTripIsATokenWithoutATripID() throws {
        let world = try Self.world.get()
        let token = try world.token(role: .driver)
        let answer = try RawHTTP.exchange(world.server.url, RawHTTP.request(
            "GET", "/v1/\(Self.parent)/trips/t1", headers: [("Authorization", "Bearer \(token)")]))
        #expect(answer.status == 401, "\(answer.body)")
        #expect(answer.body.contains("UNAUTHENTICATED"))
        #expect(answer.body.contains("without a trip ID"))
    }

    /// Expired and wrongly signed tokens are 401 UNAUTHENTICATED; a missing one is 403
    /// PERMISSION_DENIED, as the Consumer SDK guide lists "JWT missing".
    @Test func expiredAndWrongSignatureAreUnauthenticatedMissingIsDenied() throws {
        let world = try Self.world.get()
        let twoHoursAgo: EpochClock = { Date().timeIntervalSince1970 - 7200 }
        let expired = try world.token(role: .server, clock: twoHoursAgo)
        let forged = try world.token(role: .server, secret: Array(repeating: 65, count: 48))
        for (label, token) in [("expired", Optional(expired)), ("wrong signature", Optional(forged)), ("missing", nil)] {
            let source: (@Sendable (Bool) throws -> String)? = token.map { t in { @Sendable _ in t } }
            let api = try RESTClient(baseURL: world.server.url, token: source, retry: .never)
            do {
                _ = try api.getVehicle(GetVehicleRequest(name: "\(Self.parent)/vehicles/v1"))
                Issue.record("\(label) token was accepted")
            } catch let error as FleetError {
                #expect(error.code == (token == nil ? .permissionDenied : .unauthenticated), "\(label): \(error)")
            }
        }
    }

    @Test func aDriverMayNotChangeFieldsBeyondItsOwn() throws {
        let world = try Self.world.get()
        let api = try world.client(role: .driver)
        do {
            _ = try api.updateVehicle(UpdateVehicleRequest(name: "\(Self.parent)/vehicles/v1", vehicle: Vehicle(maximumCapacity: 9),
                                                           updateMask: ["maximumCapacity"]))
            Issue.record("a driver changed maximumCapacity")
        } catch let error as FleetError {
            #expect(error.code == .permissionDenied)
        }
    }
}
