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
///
/// UpdateDeliveryVehicle and UpdateTask go over gRPC (their REST rules bind a nested field,
/// `deliveryVehicle.name`, which the REST routing of this tree does not serve yet), so the matrix
/// crosses both transports' admission; everything else goes over REST. An allowed call must succeed
/// (creating the caller's own delivery vehicle or task, which exist, may answer ALREADY_EXISTS, and
/// deleting one never created NOT_FOUND: the engine's answers, past the token checks).
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
            server = try ServerProcess(store: "memory", arguments: ["--jwt-secret-file", "\(provider)=\(file.path)", "--grpc-listen", "127.0.0.1:0"])
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
            // Delivery vehicles d1, d2 and tasks k1, k2 (tracking IDs s1, s2).
            for number in [1, 2] {
                _ = try admin.createDeliveryVehicle(CreateDeliveryVehicleRequest(parent: parent, deliveryVehicleId: "d\(number)",
                                                                                 deliveryVehicle: DeliveryVehicle()))
                _ = try admin.createTask(CreateTaskRequest(parent: parent, taskId: "k\(number)", task: AuthMatrixTests.task(trackingID: "s\(number)")))
            }
        }

        func token(role: Role, clock: @escaping EpochClock = systemEpochClock, secret: [UInt8]? = nil) throws -> String {
            let minter = TokenMinter(key: try .hs256(secret: secret ?? self.secret), clock: clock)
            switch role {
            case .server, .fleetReader: return try minter.mint(role: role)
            case .driver: return try minter.mint(role: role, vehicleID: "v1", deliveryVehicleID: "d1")
            case .trustedDriver: return try minter.mint(role: role, vehicleID: "v1", deliveryVehicleID: "d1", taskID: "k1")
            case .consumer: return try minter.mint(role: role, tripID: "t1", trackingID: "s1")
            }
        }

        func client(role: Role) throws -> RESTClient {
            try client(token: self.token(role: role))
        }

        func client(token: String) throws -> RESTClient {
            try RESTClient(baseURL: server.url, token: { _ in token }, retry: .never)
        }

        /// Calls `method` of DeliveryService over gRPC with `role`'s token; a status other than OK
        /// is thrown as the `FleetError` it carries.
        func grpc(_ method: FleetMethod, _ request: some ProtoBinaryMessage, role: Role) throws {
            let answer = try GRPCCall.call(server, "/maps.fleetengine.delivery.v1.DeliveryService/\(method)", request.protobufBytes(),
                                           token: token(role: role))
            guard let status = answer.status, let code = GRPCCode(rawValue: Int32(status)) else {
                throw FleetError(code: .unknown, message: "no grpc-status: \(answer.output)")
            }
            if code != .ok { throw FleetError(code: code, message: answer.message) }
        }

        deinit { try? FileManager.default.removeItem(at: directory) }
    }

    static let world = Result { try World() }

    /// A shipment's delivery task, as CreateTask requires it.
    static func task(trackingID: String) -> DeliveryTask {
        DeliveryTask(type: .delivery, state: .open, trackingId: trackingID,
                     plannedLocation: LocationInfo(point: LatLng(latitude: 52.54, longitude: 13.42)), taskDuration: ProtoDuration(seconds: 120))
    }

    /// Whether `role` may call `method` on its own resource (vehicle v1, trip t1, delivery vehicle d1,
    /// task k1, shipment s1: what its token names) and on another's. Written out by hand, so the test
    /// can fail. A trusted driver's token names task k1, so it may not BatchCreateTasks, which works
    /// on many tasks.
    static func expected(_ role: Role, _ method: FleetMethod) -> (own: Bool, other: Bool) {
        switch (role, method) {
        case (.server, _): return (true, true)
        case (.fleetReader, let m): return m.isReadOnly ? (true, true) : (false, false)
        case (.driver, .getVehicle), (.driver, .updateVehicle), (.driver, .getDeliveryVehicle), (.driver, .updateDeliveryVehicle):
            return (true, false)
        case (.trustedDriver, .getVehicle), (.trustedDriver, .updateVehicle), (.trustedDriver, .getDeliveryVehicle),
             (.trustedDriver, .updateDeliveryVehicle), (.trustedDriver, .createDeliveryVehicle), (.trustedDriver, .createTask),
             (.trustedDriver, .updateTask):
            return (true, false)
        case (.consumer, .getTrip), (.consumer, .watchTrip), (.consumer, .getTaskTrackingInfo), (.consumer, .watchTaskTrackingInfo):
            return (true, false)
        default: return (false, false)
        }
    }

    /// Makes one call of `method` on the caller's own resource (`own`) or someone else's, as `role`.
    static func call(_ method: FleetMethod, own: Bool, role: Role, world: World) throws {
        let api = try world.client(role: role)
        let vehicle = "\(parent)/vehicles/\(own ? "v1" : "v2")"
        let trip = "\(parent)/trips/\(own ? "t1" : "t2")"
        let deliveryVehicle = "\(parent)/deliveryVehicles/\(own ? "d1" : "d2")"
        let taskName = "\(parent)/tasks/\(own ? "k1" : "k2")"
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
        case .createDeliveryVehicle:
            do {
                _ = try api.createDeliveryVehicle(CreateDeliveryVehicleRequest(parent: parent, deliveryVehicleId: own ? "d1" : fresh,
                                                                               deliveryVehicle: DeliveryVehicle()))
            } catch let e as FleetError where e.code == .alreadyExists && own {}
        case .getDeliveryVehicle: _ = try api.getDeliveryVehicle(GetDeliveryVehicleRequest(name: deliveryVehicle))
        case .deleteDeliveryVehicle:
            do { try api.deleteDeliveryVehicle(DeleteDeliveryVehicleRequest(name: "\(parent)/deliveryVehicles/\(fresh)")) } catch let e as FleetError where e.code == .notFound {}
        case .updateDeliveryVehicle:
            try world.grpc(method, UpdateDeliveryVehicleRequest(deliveryVehicle: DeliveryVehicle(
                name: deliveryVehicle, lastLocation: DeliveryVehicleLocation(location: LatLng(latitude: 52.521, longitude: 13.401))),
                updateMask: ["lastLocation"]), role: role)
        case .batchCreateTasks:
            _ = try api.batchCreateTasks(BatchCreateTasksRequest(parent: parent, requests: [
                CreateTaskRequest(parent: parent, taskId: fresh, task: Self.task(trackingID: "s1")),
            ]))
        case .createTask:
            do {
                _ = try api.createTask(CreateTaskRequest(parent: parent, taskId: own ? "k1" : fresh, task: Self.task(trackingID: "s1")))
            } catch let e as FleetError where e.code == .alreadyExists && own {}
        case .getTask: _ = try api.getTask(GetTaskRequest(name: taskName))
        case .deleteTask:
            do { try api.deleteTask(DeleteTaskRequest(name: "\(parent)/tasks/\(fresh)")) } catch let e as FleetError where e.code == .notFound {}
        case .updateTask:
            try world.grpc(method, UpdateTaskRequest(task: DeliveryTask(name: taskName, attributes: [TaskAttribute(key: "k", taskAttributeValue: .stringValue("v"))]),
                                                     updateMask: ["attributes"]), role: role)
        case .listTasks: _ = try api.listTasks(ListTasksRequest(parent: parent))
        case .getTaskTrackingInfo:
            _ = try api.getTaskTrackingInfo(GetTaskTrackingInfoRequest(name: "\(parent)/taskTrackingInfo/\(own ? "s1" : "s2")"))
        case .listDeliveryVehicles: _ = try api.listDeliveryVehicles(ListDeliveryVehiclesRequest(parent: parent))
        case .watchTask:
            let cancellation = Cancellation()
            try api.watchTask(GetTaskRequest(name: taskName), cancellation: cancellation) { _ in cancellation.cancel() }
        case .watchTaskTrackingInfo:
            let cancellation = Cancellation()
            try api.watchTaskTrackingInfo(GetTaskTrackingInfoRequest(name: "\(parent)/taskTrackingInfo/\(own ? "s1" : "s2")"),
                                          cancellation: cancellation) { _ in cancellation.cancel() }
        }
    }


    @Test(arguments: Role.allCases, FleetMethod.allCases)
    func roleMayCallMethodOnlyAsTheMatrixSays(role: Role, method: FleetMethod) throws {
        let world = try Self.world.get()
        let expected = Self.expected(role, method)
        for own in [true, false] {
            let allowed = own ? expected.own : expected.other
            let which = own ? "its own" : "another"
            do {
                try Self.call(method, own: own, role: role, world: world)
                #expect(allowed, "\(role) \(method) on \(which) resource succeeded but should be denied")
            } catch let error as FleetError {
                if allowed {
                    Issue.record("\(role) \(method) on \(which) resource: \(error)")
                } else {
                    // A denial is 403, except a token without the ID its role needs for an `own …` cell
                    // (a driver token reading a trip), which the Consumer SDK guide answers 401.
                    let withoutTripID = Authorizer.access(of: role, to: method) == .ownTrip && role != .consumer
                    #expect(error.code == (withoutTripID ? .unauthenticated : .permissionDenied), "\(role) \(method) on \(which): \(error)")
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

    /// Fleet Engine's Delivery Untrusted Driver may update its delivery vehicle's location, never its
    /// stops, attributes or type: PERMISSION_DENIED naming the field, before the engine sees the call.
    @Test func aDeliveryDriverMayUpdateOnlyItsLocation() throws {
        let world = try Self.world.get()
        let name = "\(Self.parent)/deliveryVehicles/d1"
        for field in ["remainingVehicleJourneySegments", "attributes", "type"] {
            do {
                try world.grpc(.updateDeliveryVehicle, UpdateDeliveryVehicleRequest(deliveryVehicle: DeliveryVehicle(name: name),
                                                                                    updateMask: FieldMask([field])), role: .driver)
                Issue.record("a delivery driver changed \(field)")
            } catch let error as FleetError {
                #expect(error.code == .permissionDenied, "\(error)")
                #expect(error.message.contains("may not update the delivery vehicle's \"\(field)\""), "\(error)")
            }
        }
        try world.grpc(.updateDeliveryVehicle, UpdateDeliveryVehicleRequest(deliveryVehicle: DeliveryVehicle(
            name: name, lastLocation: DeliveryVehicleLocation(location: LatLng(latitude: 52.522, longitude: 13.402))),
            updateMask: ["lastLocation", "navigationStatus"]), role: .driver)
        // A trusted driver may change its vehicle's attributes.
        try world.grpc(.updateDeliveryVehicle, UpdateDeliveryVehicleRequest(deliveryVehicle: DeliveryVehicle(
            name: name, attributes: [DeliveryVehicleAttribute(key: "depot", value: "north")]), updateMask: ["attributes"]), role: .trustedDriver)
    }

    /// A rides consumer token (a trip ID, no tracking ID) reading a shipment: 401 UNAUTHENTICATED with a
    /// Google error body, as a token without a trip ID reading a trip.
    @Test func aConsumerTokenWithoutATrackingIDIsUnauthenticated() throws {
        let world = try Self.world.get()
        let token = try TokenMinter(key: .hs256(secret: world.secret)).mint(role: .consumer, tripID: "t1")
        let answer = try RawHTTP.exchange(world.server.url, RawHTTP.request(
            "GET", "/v1/\(Self.parent)/taskTrackingInfo/s1", headers: [("Authorization", "Bearer \(token)")]))
        #expect(answer.status == 401, "\(answer.body)")
        #expect(answer.body.contains("UNAUTHENTICATED"))
        #expect(answer.body.contains("without a tracking ID"), "\(answer.body)")
    }

    /// A trusted driver whose token names every task (`taskid` `*`) may create them in batches and
    /// update any of them; one naming a single task may not batch.
    @Test func aTrustedDriverForEveryTaskMayBatchCreate() throws {
        let world = try Self.world.get()
        let minter = TokenMinter(key: try .hs256(secret: world.secret))
        let everyTask = try world.client(token: minter.mint(role: .trustedDriver, deliveryVehicleID: "d1", taskID: "*"))
        let batch = BatchCreateTasksRequest(parent: Self.parent, requests: [
            CreateTaskRequest(parent: Self.parent, taskId: "batch-\(UInt32.random(in: 0...UInt32.max))", task: Self.task(trackingID: "s3")),
        ])
        #expect(try everyTask.batchCreateTasks(batch).tasks.count == 1)
        let oneTask = try world.client(role: .trustedDriver)
        do {
            _ = try oneTask.batchCreateTasks(batch)
            Issue.record("a token for task k1 created tasks in a batch")
        } catch let error as FleetError {
            #expect(error.code == .permissionDenied && error.message.contains("JWT signed for the single task \"k1\""), "\(error)")
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
