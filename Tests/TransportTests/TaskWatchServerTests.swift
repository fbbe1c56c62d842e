import FleetAuth
import FleetConcurrency
import FleetErrors
import FleetInterface
import FleetModel
import FleetTestSupport
import Foundation
import RESTClient
import Synchronization
import Testing

/// The `:watch` streams of a task and of a tracking ID on a real `fleet-admin serve`: server-sent
/// events named `task` and `taskTrackingInfo`, the end of a stream when what it shows is deleted, the
/// watch limits, tokens (a consumer sees its own shipment only, a stream ends when its token expires
/// and `RESTClient` opens it again with a new one).
@Suite(.serialized) struct TaskWatchServerTests {
    static let parent = "providers/p"

    /// A delivery vehicle dv1 at a depot with task k1 (tracking ID S1) at its stop, and task k2 (S2) on
    /// no vehicle.
    static func deliveries(_ api: RESTClient) throws {
        _ = try api.createDeliveryVehicle(CreateDeliveryVehicleRequest(parent: parent, deliveryVehicleId: "dv1", deliveryVehicle: DeliveryVehicle(
            lastLocation: DeliveryVehicleLocation(location: LatLng(latitude: 48.10, longitude: 11.50)))))
        for (task, tracking) in [("k1", "S1"), ("k2", "S2")] {
            _ = try api.createTask(CreateTaskRequest(parent: parent, taskId: task, task: DeliveryTask(
                type: .delivery, state: .open, trackingId: tracking,
                plannedLocation: LocationInfo(point: LatLng(latitude: 48.11, longitude: 11.52)), taskDuration: ProtoDuration(seconds: 60))))
        }
        _ = try api.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
            deliveryVehicle: DeliveryVehicle(name: "\(parent)/deliveryVehicles/dv1", remainingVehicleJourneySegments: [VehicleJourneySegment(
                stop: VehicleStop(plannedLocation: LocationInfo(point: LatLng(latitude: 48.11, longitude: 11.52)),
                                  tasks: [VehicleStop.TaskInfo(taskId: "k1")], state: .new))]),
            updateMask: ["remainingVehicleJourneySegments"]))
    }

    static func move(_ api: RESTClient, to latitude: Double) throws {
        _ = try api.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
            deliveryVehicle: DeliveryVehicle(name: "\(parent)/deliveryVehicles/dv1",
                                             lastLocation: DeliveryVehicleLocation(location: LatLng(latitude: latitude, longitude: 11.51))),
            updateMask: ["lastLocation"]))
    }

    @Test func eachStreamSendsItsEventsAndEndsWithNotFoundWhenItsTaskIsDeleted() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let api = try RESTClient(baseURL: server.url)
        try Self.deliveries(api)
        let task = try TestSocket(url: server.url)
        let tracking = try TestSocket(url: server.url)
        defer { task.close(); tracking.close() }
        // `Connection: close`: the server closes the connection once the stream ends.
        task.send("GET /v1/\(Self.parent)/tasks/k2:watch HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        tracking.send("GET /v1/\(Self.parent)/taskTrackingInfo/S2:watch?header.languageCode=de HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        let taskStart = task.read(until: "event: task\n", timeout: 10)
        let trackingStart = tracking.read(until: "event: taskTrackingInfo\n", timeout: 10)
        for start in [taskStart, trackingStart] {
            #expect(start.hasPrefix("HTTP/1.1 200"), "\(start)")
            #expect(start.lowercased().contains("content-type: text/event-stream"), "\(start)")
        }
        #expect(taskStart.contains(#""name":"providers/p/tasks/k2""#), "\(taskStart)")
        #expect(trackingStart.contains(#""trackingId":"S2""#), "\(trackingStart)")

        // k2 goes, on no vehicle: both streams end with NOT_FOUND.
        try api.deleteTask(DeleteTaskRequest(name: "\(Self.parent)/tasks/k2"))
        let taskEnd = task.readToEnd(timeout: 10)
        let trackingEnd = tracking.readToEnd(timeout: 10)
        for end in [taskEnd, trackingEnd] {
            let error = try #require(end.range(of: "event: error"), "\(end)")
            #expect(end[error.lowerBound...].contains(#""status":"NOT_FOUND""#), "\(end)")
        }
        #expect(trackingEnd.contains("TRACKING_ID_NOT_FOUND"), "\(trackingEnd)")

        // A watch of what does not exist is refused at once, with the status its Get call has.
        let missing = try RawHTTP.exchange(server.url, RawHTTP.request("GET", "/v1/\(Self.parent)/taskTrackingInfo/NONE:watch"))
        #expect(missing.status == 404, "\(missing.body)")
        let unknown = try RawHTTP.exchange(server.url, RawHTTP.request("GET", "/v1/\(Self.parent)/tasks/k1:watch?view=FULL"))
        #expect(unknown.status == 400, "\(unknown.body)")
        #expect(unknown.body.contains("Cannot bind query parameter"), "\(unknown.body)")
    }

    @Test func theRESTClientFollowsBothStreamsAndAWatchOfADeletedTaskThrowsNotFound() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let api = try RESTClient(baseURL: server.url)
        try Self.deliveries(api)
        let cancellation = Cancellation()
        let seen = Mutex<[LatLng?]>([])
        let done = DispatchSemaphore(value: 0)
        let watcher = Thread {
            try? api.watchTaskTrackingInfo(GetTaskTrackingInfoRequest(name: "\(Self.parent)/taskTrackingInfo/S1"), cancellation: cancellation) { info in
                seen.withLock { $0.append(info.vehicleLocation?.location) }
                if info.vehicleLocation?.location?.latitude == 48.106 { cancellation.cancel() }
            }
            done.signal()
        }
        watcher.start()
        func waitForDelivery(_ count: Int) -> Bool {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline && seen.withLock({ $0.count }) < count { usleep(5_000) }
            return seen.withLock { $0.count } >= count
        }
        #expect(waitForDelivery(1))
        try Self.move(api, to: 48.104)
        #expect(waitForDelivery(2))
        try Self.move(api, to: 48.106)
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(seen.withLock { $0.map { $0?.latitude } } == [48.10, 48.104, 48.106])

        let ended = Mutex<FleetError?>(nil)
        let opened = DispatchSemaphore(value: 0)
        let gone = DispatchSemaphore(value: 0)
        let taskWatcher = Thread {
            do {
                try api.watchTask(GetTaskRequest(name: "\(Self.parent)/tasks/k2"), cancellation: Cancellation()) { _ in opened.signal() }
            } catch {
                ended.withLock { $0 = error as? FleetError }
            }
            gone.signal()
        }
        taskWatcher.start()
        #expect(opened.wait(timeout: .now() + 10) == .success)
        try api.deleteTask(DeleteTaskRequest(name: "\(Self.parent)/tasks/k2"))
        #expect(gone.wait(timeout: .now() + 10) == .success)
        #expect(ended.withLock { $0?.code } == .notFound)
    }

    @Test func watchesOfTasksCountAgainstTheWatchLimits() throws {
        let server = try ServerProcess(arguments: ["--max-watches-per-client", "1"])
        defer { server.stop() }
        try Self.deliveries(try RESTClient(baseURL: server.url))
        let first = try TestSocket(url: server.url)
        defer { first.close() }
        first.send("GET /v1/\(Self.parent)/tasks/k1:watch HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(first.read(until: "event: task\n", timeout: 10).contains("200 OK"))
        let second = try RawHTTP.exchange(server.url, RawHTTP.request("GET", "/v1/\(Self.parent)/taskTrackingInfo/S1:watch"))
        #expect(second.status == 429, "\(second.body)")
        #expect(second.body.contains("TOO_MANY_WATCHES"), "\(second.body)")
    }

    @Test func aConsumerWatchesItsOwnShipmentOnlyAndItsWatchOutlivesItsToken() throws {
        let folder = try Products.temporaryDirectory("task-watch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let tokens = try MintedTokens(folder: folder, provider: "p")
        let server = try ServerProcess(arguments: tokens.serverArguments)
        defer { server.stop() }
        let minter = TokenMinter(key: try .hs256(secret: Array(tokens.secret.utf8)))
        let serverToken = try minter.mint(role: .server)
        let admin = try RESTClient(baseURL: server.url, token: { _ in serverToken }, retry: .never)
        try Self.deliveries(admin)
        let consumerToken = try minter.mint(role: .consumer, trackingID: "S1")
        let consumer = try RESTClient(baseURL: server.url, token: { _ in consumerToken }, retry: .never)

        // Its own shipment: watched. Another shipment, or a task: refused before any event.
        let own = Cancellation()
        var first: TaskTrackingInfo?
        try consumer.watchTaskTrackingInfo(GetTaskTrackingInfoRequest(name: "\(Self.parent)/taskTrackingInfo/S1"), cancellation: own) { info in
            first = info
            own.cancel()
        }
        #expect(first?.trackingId == "S1")
        do {
            try consumer.watchTaskTrackingInfo(GetTaskTrackingInfoRequest(name: "\(Self.parent)/taskTrackingInfo/S2"), cancellation: Cancellation()) { _ in
                Issue.record("a consumer token for S1 was sent S2")
            }
            Issue.record("a consumer token for S1 watched S2")
        } catch let error as FleetError {
            #expect(error.code == .permissionDenied, "\(error)")
            #expect(error.cause == ErrorCause.jwtForOtherResource.id, "\(error)")
        }
        do {
            try consumer.watchTask(GetTaskRequest(name: "\(Self.parent)/tasks/k1"), cancellation: Cancellation()) { _ in
                Issue.record("a consumer token was sent a task")
            }
            Issue.record("a consumer token watched a task")
        } catch let error as FleetError {
            #expect(error.code == .permissionDenied, "\(error)")
        }
        let serverWatch = Cancellation()
        try admin.watchTask(GetTaskRequest(name: "\(Self.parent)/tasks/k1"), cancellation: serverWatch) { task in
            #expect(task.deliveryVehicleId == "dv1")
            serverWatch.cancel()
        }

        // A token accepted for 3 s more: the server ends the stream with JWT_EXPIRED, and the client
        // opens it again with the next token, at once, and goes on.
        let issued = Mutex<[Bool]>([])
        let renewing = try RESTClient(baseURL: server.url, token: { forceRefresh in
            let count = issued.withLock { $0.append(forceRefresh); return $0.count }
            return count == 1 ? try tokens.mintExpiring(role: .consumer, trackingID: "S1", acceptedFor: 3)
                              : try minter.mint(role: .consumer, trackingID: "S1")
        }, retry: .never)
        let watch = Cancellation()
        let seen = Mutex<[Double?]>([])
        let done = DispatchSemaphore(value: 0)
        let failure = Mutex<(any Error)?>(nil)
        let watcher = Thread {
            do {
                try renewing.watchTaskTrackingInfo(GetTaskTrackingInfoRequest(name: "\(Self.parent)/taskTrackingInfo/S1"), cancellation: watch) { info in
                    seen.withLock { $0.append(info.vehicleLocation?.location?.latitude) }
                    if info.vehicleLocation?.location?.latitude == 48.107 { watch.cancel() }
                }
            } catch {
                failure.withLock { $0 = error }
            }
            done.signal()
        }
        watcher.start()
        // Past the first token's end, a second token has been asked for, forcibly.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline && issued.withLock({ $0.count }) < 2 { usleep(20_000) }
        #expect(issued.withLock { $0 } == [false, true])
        let reopened = Date().addingTimeInterval(10)
        while Date() < reopened && seen.withLock({ $0.count }) < 2 { usleep(5_000) }
        try Self.move(admin, to: 48.107)
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(failure.withLock { $0 } == nil)
        // The first state, again on reopening (the same state), then the move.
        #expect(seen.withLock { $0 } == [48.10, 48.10, 48.107])
    }
}
