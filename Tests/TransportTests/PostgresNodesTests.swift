import FleetModel
import FleetTestSupport
import Foundation
import RESTClient
import Synchronization
import Testing

/// Several real `fleet-admin serve` nodes on one PostgreSQL database, as behind a load balancer:
/// what one node writes, the other reads, pages and watches.
@Suite(.enabled(if: PostgresCluster.isInstalled, Comment(rawValue: PostgresCluster.missingMessage)))
struct PostgresNodesTests {
    static let parent = "providers/p"

    /// Two nodes on a fresh database of the test cluster.
    func nodes() throws -> (ServerProcess, ServerProcess) {
        let store = try PostgresCluster.shared!.database(named: "nodes")
        return (try ServerProcess(store: store), try ServerProcess(store: store))
    }

    func vehicle(at latitude: Double) -> Vehicle {
        Vehicle(vehicleState: .online, supportedTripTypes: [.exclusive],
                lastLocation: VehicleLocation(location: LatLng(latitude: latitude, longitude: 13.4)),
                maximumCapacity: 4, vehicleType: VehicleType(category: .auto))
    }

    @Test func writesThroughOneNodeAreReadAndPagedThroughTheOther() throws {
        let (a, b) = try nodes()
        defer { a.stop(); b.stop() }
        let throughA = try RESTClient(baseURL: a.url), throughB = try RESTClient(baseURL: b.url)
        for n in 1...5 {
            _ = try throughA.createVehicle(CreateVehicleRequest(parent: Self.parent, vehicleId: "v\(n)", vehicle: vehicle(at: 52.5)))
        }
        _ = try throughA.createTrip(CreateTripRequest(parent: Self.parent, tripId: "t1", trip: Trip(
            vehicleId: "v1", tripType: .exclusive, pickupPoint: TerminalLocation(point: LatLng(latitude: 52.51, longitude: 13.41)))))

        #expect(try throughB.getTrip(GetTripRequest(name: "\(Self.parent)/trips/t1")).vehicleId == "v1")
        _ = try throughB.updateVehicle(UpdateVehicleRequest(
            name: "\(Self.parent)/vehicles/v2", vehicle: Vehicle(vehicleState: .offline), updateMask: FieldMask(["vehicleState"])))
        #expect(try throughA.getVehicle(GetVehicleRequest(name: "\(Self.parent)/vehicles/v2")).vehicleState == .offline)

        // A page token from one node works on the other.
        let first = try throughA.listVehicles(ListVehiclesRequest(parent: Self.parent, pageSize: 2, vehicleTypeCategories: [.auto]))
        let token = try #require(first.nextPageToken)
        var names = first.vehicles.compactMap(\.name)
        var next: String? = token
        while let page = next, !page.isEmpty {
            let answer = try throughB.listVehicles(ListVehiclesRequest(parent: Self.parent, pageSize: 2, pageToken: page, vehicleTypeCategories: [.auto]))
            names += answer.vehicles.compactMap(\.name)
            next = answer.nextPageToken
        }
        #expect(names == (1...5).map { "\(Self.parent)/vehicles/v\($0)" })
    }

    /// A watch on node B hears of a change made through node A from PostgreSQL's notification, well
    /// before B's next poll of the store (every second).
    @Test func aWatchOnOneNodeSeesAChangeMadeThroughTheOther() throws {
        let (a, b) = try nodes()
        defer { a.stop(); b.stop() }
        let throughA = try RESTClient(baseURL: a.url)
        _ = try throughA.createVehicle(CreateVehicleRequest(parent: Self.parent, vehicleId: "v1", vehicle: vehicle(at: 52.5)))
        _ = try throughA.createTrip(CreateTripRequest(parent: Self.parent, tripId: "t1", trip: Trip(
            vehicleId: "v1", tripType: .exclusive, pickupPoint: TerminalLocation(point: LatLng(latitude: 52.51, longitude: 13.41)))))
        let watch = try WatchSocket(url: b.url, target: "/v1/\(Self.parent)/trips/t1:watch")
        defer { watch.close() }
        #expect(try watch.readEvents(until: 1) == 1)

        var delays: [Double] = []
        for step in 1...5 {
            Thread.sleep(forTimeInterval: 0.3)  // away from the moment B last polled
            let latitude = 52.5 + Double(step) * 0.001
            let sent = Date()
            _ = try throughA.updateVehicle(UpdateVehicleRequest(
                name: "\(Self.parent)/vehicles/v1",
                vehicle: Vehicle(lastLocation: VehicleLocation(location: LatLng(latitude: latitude, longitude: 13.4))),
                updateMask: FieldMask(["lastLocation"])))
            #expect(try watch.readEvents(until: 1 + step) == 1 + step)
            delays.append(Date().timeIntervalSince(sent))
            #expect(watch.received.contains(String(latitude)))
        }
        // With polling alone, the delays would spread over the poll's second; notified, each is the
        // time of one read of the trip.
        let slowest = delays.max() ?? 0
        #expect(slowest < 0.5, "node B saw node A's changes after \(delays) s")
    }

    /// A store URL the server refuses stops `serve` at start with the bad-setting exit (INVALID_ARGUMENT,
    /// 13), naming the URL without its password; a server nobody listens on is UNAVAILABLE (24).
    @Test func serveRefusesABadDatabaseURLAtStart() throws {
        let cluster = try #require(try PostgresCluster.shared)
        let runner = try BinaryRunner(product: "fleet-admin")
        let missing = try runner.run(["serve", "--listen", "127.0.0.1:0", "--store",
                                      "postgres://\(PostgresCluster.user):hunter2@127.0.0.1:\(cluster.port)/no_such_database"])
        #expect(missing.status == 13, "\(missing)")
        #expect(missing.error.contains("postgres://\(PostgresCluster.user):***@127.0.0.1:\(cluster.port)/no_such_database"), "\(missing)")
        #expect(missing.error.contains("STORE_SETTING_REJECTED"), "\(missing)")
        #expect(!missing.error.contains("hunter2"), "\(missing)")
        let unreachable = try runner.run(["serve", "--listen", "127.0.0.1:0", "--store", "postgres://fleet@127.0.0.1:1/fleet?connect_timeout=2"])
        #expect(unreachable.status == 24, "\(unreachable)")
    }

    /// The database stopped under a running node (a crash, a restart, a failover): calls fail with
    /// UNAVAILABLE (HTTP 503, so clients retry) and succeed again once it is back, by themselves,
    /// with everything acknowledged before still there.
    @Test func aNodeRecoversByItselfWhenItsDatabaseComesBack() throws {
        let cluster = try PostgresCluster.makePrivate()
        let node = try ServerProcess(store: try cluster.database(named: "restart"))
        defer { node.stop() }
        let client = try RESTClient(baseURL: node.url)
        _ = try client.createVehicle(CreateVehicleRequest(parent: Self.parent, vehicleId: "v1", vehicle: vehicle(at: 52.5)))
        let path = "/v1/\(Self.parent)/vehicles/v1"

        try cluster.stopImmediately()
        let down = try RawHTTP.exchange(node.url, RawHTTP.request("GET", path))
        #expect(down.status == 503, "\(down.body)")
        #expect(down.body.contains("UNAVAILABLE"))
        // The body says what happened, not where the database is: user, host, port and database
        // name go only to the server's log.
        #expect(down.body.contains("The database is unavailable"), "\(down.body)")
        for secret in ["\(PostgresCluster.user)@", "127.0.0.1", String(cluster.port), "restart"] {
            #expect(!down.body.contains(secret), "\(secret) in \(down.body)")
        }
        #expect(node.standardError.contains("STORE_UNREACHABLE") && node.standardError.contains("\(PostgresCluster.user)@127.0.0.1:\(cluster.port)/"),
                "\(node.standardError)")
        // …and says when to look again.
        let socket = try TestSocket(url: node.url)
        socket.send(String(decoding: RawHTTP.request("GET", path, headers: [("Connection", "close")]), as: UTF8.self))
        let raw = socket.readToEnd(timeout: 10)
        socket.close()
        #expect(raw.hasPrefix("HTTP/1.1 503"), "\(raw.prefix(200))")
        #expect(raw.contains("Retry-After: 1\r\n"), "\(raw.prefix(300))")

        try cluster.start()
        var answer = try RawHTTP.exchange(node.url, RawHTTP.request("GET", path))
        let deadline = Date().addingTimeInterval(10)
        while answer.status != 200 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            answer = try RawHTTP.exchange(node.url, RawHTTP.request("GET", path))
        }
        #expect(answer.status == 200, "\(answer.body)")
        #expect(answer.body.contains("vehicles/v1"))
    }

    /// The REST client rides out a short database outage by itself: each 503 names a wait
    /// (`Retry-After: 1`), and the client waits at least that long before each retry, so that its
    /// five attempts span the seconds a failover takes rather than the fraction of one its own
    /// backoff starts with.
    @Test func theRESTClientRidesOutADatabaseOutageOnItsOwn() throws {
        let cluster = try PostgresCluster.makePrivate()
        let node = try ServerProcess(store: try cluster.database(named: "rideout"))
        defer { node.stop() }
        let client = try RESTClient(baseURL: node.url)
        _ = try client.createVehicle(CreateVehicleRequest(parent: Self.parent, vehicleId: "v1", vehicle: vehicle(at: 52.5)))
        try cluster.stopImmediately()
        let restart = Thread {
            Thread.sleep(forTimeInterval: 2.5)
            try? cluster.start()
        }
        restart.start()
        let moved = try client.updateVehicle(UpdateVehicleRequest(
            name: "\(Self.parent)/vehicles/v1", vehicle: vehicle(at: 52.51), updateMask: FieldMask(["lastLocation"])))
        #expect(moved.lastLocation?.location?.latitude == 52.51)
    }

    /// A node killed (SIGKILL) while clients write through it loses none of the writes it
    /// acknowledged: each was committed in PostgreSQL before its answer went out.
    @Test func aNodeKilledInTheMiddleOfWritesLosesNoneItAcknowledged() throws {
        let (a, b) = try nodes()
        defer { b.stop() }
        let acknowledged = Mutex<[String]>([])
        let body = Array(#"{"vehicleState":"ONLINE","supportedTripTypes":["EXCLUSIVE"],"maximumCapacity":4,"vehicleType":{"category":"AUTO"}}"#.utf8)
        let writers = (0..<4).map { writer in
            Thread {
                for n in 0..<10_000 {
                    let id = "w\(writer)-\(n)"
                    guard let answer = try? RawHTTP.exchange(a.url, RawHTTP.request(
                        "POST", "/v1/\(Self.parent)/vehicles?vehicleId=\(id)", headers: [("Content-Type", "application/json")], body: body),
                        timeout: 5), answer.status != nil else { return }
                    if answer.status == 200 { acknowledged.withLock { $0.append(id) } }
                }
            }
        }
        writers.forEach { $0.start() }
        let deadline = Date().addingTimeInterval(20)
        while acknowledged.withLock({ $0.count }) < 40 && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        a.kill()
        Thread.sleep(forTimeInterval: 0.5)  // writers find the node gone and stop
        let written = acknowledged.withLock { $0 }
        #expect(written.count >= 40)
        let throughB = try RESTClient(baseURL: b.url)
        var stored: Set<String> = []
        var token: String?
        repeat {
            let page = try throughB.listVehicles(ListVehiclesRequest(parent: Self.parent, pageSize: 500, pageToken: token, vehicleTypeCategories: [.auto]))
            stored.formUnion(page.vehicles.compactMap { $0.name?.split(separator: "/").last.map(String.init) })
            token = page.nextPageToken
        } while !(token ?? "").isEmpty
        let lost = Set(written).subtracting(stored)
        #expect(lost.isEmpty, "acknowledged but lost: \(lost.sorted())")
    }

    /// A call that writes waits for its commit parked, not on a server thread: on a node with two
    /// server threads whose records table is locked (no commit can finish), six UpdateVehicle calls
    /// wait for their commits at once, a read is still answered, and all six complete once the lock
    /// goes. (The commits wait in PostgreSQL on one to six connections: a commit thread that finds
    /// several queued sends them in one transaction.)
    @Test func writesWaitingForTheirCommitsHoldNoServerThread() throws {
        let cluster = try #require(try PostgresCluster.shared)
        let store = try cluster.database(named: "parked")
        let database = String(store.split(separator: "/").last!)
        let node = try ServerProcess(store: store, arguments: ["--threads", "2"])
        defer { node.stop() }
        let client = try RESTClient(baseURL: node.url)
        for n in 1...7 {
            _ = try client.createVehicle(CreateVehicleRequest(parent: Self.parent, vehicleId: "v\(n)", vehicle: vehicle(at: 52.5)))
        }
        let lock = try PostgresTableLock(cluster: cluster, database: database, table: "records")
        defer { lock.release() }

        let statuses = Mutex<[Int?]>([])
        let writers = (1...6).map { n in
            Thread {
                let body = Array(#"{"lastLocation":{"location":{"latitude":52.6,"longitude":13.4}}}"#.utf8)
                let answer = try? RawHTTP.exchange(node.url, RawHTTP.request(
                    "PUT", "/v1/\(Self.parent)/vehicles/v\(n)?updateMask=lastLocation", headers: [("Content-Type", "application/json")], body: body),
                    halfClose: false, timeout: 30)
                statuses.withLock { $0.append(answer?.status) }
            }
        }
        writers.forEach { $0.start() }
        let count = "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND wait_event_type = 'Lock'"
        var waiting = 0
        let deadline = Date().addingTimeInterval(15)
        repeat {
            Thread.sleep(forTimeInterval: 0.05)
            waiting = Int(try cluster.psql(count).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        } while waiting < 1 && Date() < deadline
        try #require(waiting >= 1, "commits waiting in PostgreSQL")
        Thread.sleep(forTimeInterval: 0.5)  // for all six to be sent; with their threads held, two would be all the node took
        let read = try RawHTTP.exchange(node.url, RawHTTP.request("GET", "/v1/\(Self.parent)/vehicles/v7"), timeout: 5)
        #expect(read.status == 200, "a read while six writes wait: \(read.body)")
        #expect(statuses.withLock { $0.isEmpty })

        lock.release()
        let finished = Date().addingTimeInterval(20)
        while statuses.withLock({ $0.count }) < 6 && Date() < finished { Thread.sleep(forTimeInterval: 0.02) }
        #expect(statuses.withLock { $0 } == [Int?](repeating: 200, count: 6))
        for n in 1...6 {
            let vehicle = try client.getVehicle(GetVehicleRequest(name: "\(Self.parent)/vehicles/v\(n)"))
            #expect(vehicle.lastLocation?.location?.latitude == 52.6)
        }
    }

    /// The nginx configuration of docs/examples, as it stands, in front of two nodes: calls through
    /// it reach both nodes, and a :watch through it sees each change, whichever node made it.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx"), "nginx is not installed (make setup installs it)"))
    func theDocumentedNginxConfigurationServesTwoNodes() throws {
        let (a, b) = try nodes()
        defer { a.stop(); b.stop() }
        let folder = try Products.temporaryDirectory("nginx")
        defer { try? FileManager.default.removeItem(at: folder) }
        let listen = "127.0.0.1:\(try freePort())"
        let example = try String(contentsOf: repositoryFolder().appendingPathComponent("docs/examples/nginx-fleet-nodes.conf"), encoding: .utf8)
        let site = example.replacingOccurrences(of: "127.0.0.1:8081", with: a.url.replacingOccurrences(of: "http://", with: ""))
            .replacingOccurrences(of: "127.0.0.1:8082", with: b.url.replacingOccurrences(of: "http://", with: ""))
            .replacingOccurrences(of: "127.0.0.1:8080", with: listen)
        let config = """
            worker_processes 1;
            error_log \(folder.path)/error.log;
            pid \(folder.path)/nginx.pid;
            events { worker_connections 256; }
            http {
              access_log off;
              client_body_temp_path \(folder.path);
              proxy_temp_path \(folder.path);
            \(site)
            }
            """
        try config.write(to: folder.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        let nginx = Process()
        nginx.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        nginx.arguments = ["-p", folder.path, "-c", folder.appendingPathComponent("nginx.conf").path, "-g", "daemon off;"]
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("stderr.log").path, contents: nil)
        let errors = try FileHandle(forWritingTo: folder.appendingPathComponent("stderr.log"))
        nginx.standardOutput = errors
        nginx.standardError = errors
        nginx.standardInput = FileHandle.nullDevice
        try nginx.run()
        defer { nginx.terminate(); nginx.waitUntilExit() }
        let proxy = "http://" + listen
        // Not half-closed: nginx takes a client that shuts its sending side for one that went away.
        var health = try? RawHTTP.exchange(proxy, RawHTTP.request("GET", "/healthz"), halfClose: false)
        for _ in 0..<50 where health?.status != 200 {
            Thread.sleep(forTimeInterval: 0.1)
            health = try? RawHTTP.exchange(proxy, RawHTTP.request("GET", "/healthz"), halfClose: false)
        }
        try #require(health?.status == 200, "nginx did not start: \(["error.log", "stderr.log"].map { (try? String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)) ?? "" })")

        let client = try RESTClient(baseURL: proxy)
        _ = try client.createVehicle(CreateVehicleRequest(parent: Self.parent, vehicleId: "v1", vehicle: vehicle(at: 52.5)))
        _ = try client.createTrip(CreateTripRequest(parent: Self.parent, tripId: "t1", trip: Trip(
            vehicleId: "v1", tripType: .exclusive, pickupPoint: TerminalLocation(point: LatLng(latitude: 52.51, longitude: 13.41)))))
        let watch = try WatchSocket(url: proxy, target: "/v1/\(Self.parent)/trips/t1:watch")
        defer { watch.close() }
        #expect(try watch.readEvents(until: 1) == 1)
        for step in 1...4 {
            let latitude = 52.5 + Double(step) * 0.001
            _ = try client.updateVehicle(UpdateVehicleRequest(
                name: "\(Self.parent)/vehicles/v1",
                vehicle: Vehicle(lastLocation: VehicleLocation(location: LatLng(latitude: latitude, longitude: 13.4))),
                updateMask: FieldMask(["lastLocation"])))
            #expect(try watch.readEvents(until: 1 + step) == 1 + step)
            #expect(watch.received.contains(String(latitude)))
        }
        for node in [a, b] {
            let metrics = try RawHTTP.exchange(node.url, RawHTTP.request("GET", "/metrics"))
            #expect(metrics.body.contains("fleet_requests_total{method=\"UpdateVehicle\""), "\(node.url) served no update")
        }
    }
}

/// The repository's root, above this file.
private func repositoryFolder(file: String = #filePath) -> URL {
    URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

/// A loopback port free a moment ago.
private func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
    return Int(UInt16(bigEndian: address.sin_port))
}
