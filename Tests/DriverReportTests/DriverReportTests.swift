import FleetGeo
import FleetModel
import Foundation
import Glibc
import Testing

/// A 1.2 km route in Amsterdam, as an encoded polyline: 500 m east, then 700 m north.
let testRoute: [GeoPoint] = {
    let start = GeoPoint(latitude: 52.3731, longitude: 4.8926)
    let corner = Geodesy.destination(from: start, bearing: 90, meters: 500)
    return [start, corner, Geodesy.destination(from: corner, bearing: 0, meters: 700)]
}()

func point(_ location: VehicleLocation?) -> GeoPoint? {
    location?.location.map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) }
}

@Suite("driver-report, the built binary, over a shared SQLite store", .serialized)
struct DriverReportTests {
    @Test("A simulated drive reports the vehicle ONLINE along the route, then OFFLINE at its end; exit 0")
    func simulatedDrive() async throws {
        let fleet = try SharedFleet()
        try fleet.createVehicle("cab-1")
        let daemon = try DaemonProcess(fleet.transportArguments + [
            "--vehicle", "cab-1", "--source", "simulate:polyline:" + Polyline.encode(testRoute), "--speedup", "40",
        ], folder: fleet.folder)
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
        let vehicle = try fleet.vehicle("cab-1")
        #expect(vehicle.vehicleState == .offline)
        #expect(Geodesy.distance(try #require(point(vehicle.lastLocation)), testRoute[2]) < 1)
        let status = try #require(daemon.status)
        #expect(status["state"] == "OFFLINE")
        #expect((status["updatesSucceeded"]?.doubleValue ?? 0) >= 3)
        #expect(status["updatesFailed"] == 0)
        #expect((status["locationsCoalesced"]?.doubleValue ?? 0) > 0)
        let log = daemon.log
        #expect(log.contains("notice started: reporting cab-1 every 10s of simulated time (40x faster than real time)"))
        #expect(log.contains("fields=vehicleState,lastLocation state=ONLINE"))
        #expect(log.contains("notice source-ended"))
        #expect(log.contains("notice offline: the vehicle is OFFLINE"))
    }

    @Test("--interval outside 5s-60s is clamped with a warning that says so")
    func intervalClamped() throws {
        let fleet = try SharedFleet()
        try fleet.createVehicle("cab-2")
        let run = try Products.run(fleet.transportArguments + [
            "--vehicle", "cab-2", "--source", "simulate:polyline:" + Polyline.encode(Array(testRoute.prefix(2))),
            "--speedup", "50", "--interval", "1s",
        ], folder: fleet.folder)
        #expect(run.status == 0, "\(run.log)")
        #expect(run.log.contains("warning interval-clamped: --interval 1s is below the minimum of 5s: using 5s"))
        #expect(run.log.contains("every 5s of simulated time"))
    }

    @Test("--state online|offline changes the state once and exits")
    func oneShot() throws {
        let fleet = try SharedFleet()
        try fleet.createVehicle("cab-3")
        let online = try Products.run(fleet.transportArguments + ["--vehicle", "cab-3", "--state", "online"], folder: fleet.folder)
        #expect(online.status == 0, "\(online.log)")
        #expect(try fleet.vehicle("cab-3").vehicleState == .online)
        #expect(online.log.contains("fields=vehicleState state=ONLINE"))
        let offline = try Products.run(fleet.transportArguments + ["--vehicle", "cab-3", "--state", "offline"], folder: fleet.folder)
        #expect(offline.status == 0)
        #expect(try fleet.vehicle("cab-3").vehicleState == .offline)
    }

    @Test("A vehicle that does not exist is a fatal start-up error: NOT_FOUND, exit 15")
    func missingVehicle() throws {
        let fleet = try SharedFleet()
        let run = try Products.run(fleet.transportArguments + ["--vehicle", "ghost", "--source", "nmea:-"], folder: fleet.folder)
        #expect(run.status == 15)
        #expect(run.log.contains("NOT_FOUND"))
        #expect(run.log.contains("providers/demo/vehicles/ghost"))
    }

    @Test("Command-line mistakes are usage errors (exit 2) naming the option", arguments: [
        (["--vehicle", "v"], "give --source SOURCE"),
        (["--vehicle", "v", "--source", "serial:/dev/ttyS0"], "--source:"),
        (["--vehicle", "v", "--source", "nmea:-", "--state", "online"], "give one of them, not both"),
        (["--vehicle", "v", "--source", "nmea:-", "--interval", "often"], "--interval"),
        (["--vehicle", "v", "--source", "nmea:-", "--token", "a", "--token-file", "b"], "only one of --token"),
        (["--vehicle", "v", "--source", "nmea:-", "--speed", "30"], "simulated drive"),
        (["--vehicle", "v", "--state", "sideways"], "--state"),
        (["--vehicle", "bad/id", "--state", "online"], "--provider/--vehicle"),
        (["--vehicle", "v", "--source", "gpx:/nonexistent.gpx"], "--source:"),
        (["--vehicle", "v", "--source", "nmea:-", "--route", "/nonexistent.gpx"], "--route:"),
        (["--vehicle", "v", "--source", "nmea:/nonexistent/gps.nmea"], "--source: The location file does not exist: nmea:/nonexistent/gps.nmea"),
        (["--vehicle", "v", "--state", "online", "--transport", "htp://127.0.0.1:1"], "--transport: unknown transport 'htp://127.0.0.1:1'"),
        (["--vehicle", "v", "--state", "online", "--transport", "memory", "--store", "foo:bar"], "--store: unknown store 'foo:bar'"),
        (["--vehicle", "v", "--state", "online", "--transport", "memory", "--store", "sqlite:/nonexistent/dir/x.db"],
         "the folder /nonexistent/dir does not exist"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let fleet = try SharedFleet()
        try fleet.createVehicle("v")
        let run = try Products.run(fleet.transportArguments + arguments, folder: fleet.folder)
        #expect(run.status == 2, "\(run.log)")
        #expect(run.log.contains(message), "\(run.log)")
    }

    @Test("A bad token source is a clear UNAUTHENTICATED error naming it (exit 26)", arguments: [
        ["--token-file", "/nonexistent/driver.jwt"],
        ["--token-url", "http://127.0.0.1:9/token/{vehicle}"],
    ])
    func badTokenSource(arguments: [String]) throws {
        let fleet = try SharedFleet()
        try fleet.createVehicle("cab-4")
        let run = try Products.run(fleet.transportArguments + ["--vehicle", "cab-4", "--source", "nmea:-"] + arguments, folder: fleet.folder)
        #expect(run.status == 26, "\(run.log)")
        #expect(run.log.contains("UNAUTHENTICATED"))
        #expect(run.log.contains(arguments[0]), "the message names the option: \(run.log)")
        #expect(run.log.contains("TOKEN_UNAVAILABLE"), "\(run.log)")
    }

    @Test("SIGTERM mid-flight leaves the vehicle OFFLINE at its newest location; SIGUSR1 logs the counters")
    func sigtermMidFlight() async throws {
        let fleet = try SharedFleet()
        try fleet.createVehicle("cab-5")
        let daemon = try DaemonProcess(fleet.transportArguments + ["--vehicle", "cab-5", "--source", "jsonl:-", "--speedup", "10"],
                                       folder: fleet.folder)
        daemon.write(#"{"lat": 52.37, "lng": 4.89}"#)
        try await daemon.waitForStatus("the first update acknowledged") { ($0["updatesSucceeded"]?.doubleValue ?? 0) >= 1 }
        #expect(try fleet.vehicle("cab-5").vehicleState == .online)
        daemon.write(#"{"lat": 52.3701, "lng": 4.8901}"#, "not json", #"{"lat": 52.3702, "lng": 4.8902}"#)
        try await daemon.waitForStatus("three locations received") { $0["locationsReceived"] == 3 }
        daemon.signal(SIGUSR1)
        try await daemon.waitForStatus("the status line logged") { _ in daemon.log.contains("notice status: state=") }
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
        let vehicle = try fleet.vehicle("cab-5")
        #expect(vehicle.vehicleState == .offline)
        #expect(vehicle.lastLocation?.location == LatLng(latitude: 52.3702, longitude: 4.8902))
        let status = try #require(daemon.status)
        #expect(status["badSentences"] == 1)
        #expect(status["state"] == "OFFLINE")
        #expect(daemon.log.contains("stopping (SIGTERM)"))
    }

    @Test("While the store is unavailable updates fail and back off; when it returns the newest location wins")
    func storeDownThenBack() async throws {
        let fleet = try SharedFleet()
        try fleet.createVehicle("cab-6")
        let daemon = try DaemonProcess(fleet.transportArguments + ["--vehicle", "cab-6", "--source", "jsonl:-", "--speedup", "10"],
                                       folder: fleet.folder)
        daemon.write(#"{"lat": 52.37, "lng": 4.89}"#)
        try await daemon.waitForStatus("the first update acknowledged") { ($0["updatesSucceeded"]?.doubleValue ?? 0) >= 1 }

        let lock = try fleet.lockWrites()
        daemon.write(#"{"lat": 52.3701, "lng": 4.8901}"#)
        try await daemon.waitForStatus("an UNAVAILABLE failure") { ($0["failuresByCode"]?["UNAVAILABLE"]?.doubleValue ?? 0) >= 1 }
        daemon.write(#"{"lat": 52.3702, "lng": 4.8902}"#, #"{"lat": 52.3703, "lng": 4.8903}"#)
        try await daemon.waitForStatus("the locations received") { $0["locationsReceived"] == 4 }
        lock.release()

        try await daemon.waitForStatus("the newest location acknowledged") {
            $0["lastLocation"]?["latitude"] == 52.3703 && $0["consecutiveFailures"] == 0
        }
        #expect(try fleet.vehicle("cab-6").lastLocation?.location == LatLng(latitude: 52.3703, longitude: 4.8903))
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
        #expect(try fleet.vehicle("cab-6").vehicleState == .offline)
        let status = try #require(daemon.status)
        #expect((status["locationsCoalesced"]?.doubleValue ?? 0) >= 1, "a location waiting during the outage was replaced")
        #expect(daemon.log.contains("warning update-failed: UNAVAILABLE"))
        #expect(daemon.log.contains("retry_class=retryable"))
    }

    @Test("While the server is down (SIGTERM or SIGKILL) reporting keeps failing and logging; when it returns on the same port the newest location wins",
          arguments: [false, true])
    func serverDownThenBack(abruptly: Bool) async throws {
        let fleet = try SharedFleet(overHTTP: true)
        try fleet.createVehicle("cab-13")
        let daemon = try DaemonProcess(fleet.transportArguments + ["--vehicle", "cab-13", "--source", "jsonl:-", "--speedup", "10"],
                                       folder: fleet.folder)
        daemon.write(#"{"lat": 52.37, "lng": 4.89}"#)
        try await daemon.waitForStatus("the first update acknowledged") { ($0["updatesSucceeded"]?.doubleValue ?? 0) >= 1 }

        fleet.stopServer(abruptly: abruptly)
        daemon.write(#"{"lat": 52.3701, "lng": 4.8901}"#)
        try await daemon.waitForStatus("an UNAVAILABLE failure") { ($0["failuresByCode"]?["UNAVAILABLE"]?.doubleValue ?? 0) >= 1 }
        daemon.write(#"{"lat": 52.3702, "lng": 4.8902}"#, #"{"lat": 52.3703, "lng": 4.8903}"#)
        try await daemon.waitForStatus("the locations received") { $0["locationsReceived"] == 4 }
        try await daemon.waitForStatus("a second failed update") { ($0["consecutiveFailures"]?.doubleValue ?? 0) >= 2 }
        #expect(daemon.process.isRunning, "driver-report keeps running while the server is down")
        #expect(try fleet.vehicle("cab-13").lastLocation?.location == LatLng(latitude: 52.37, longitude: 4.89))

        try fleet.restartServer()
        try await daemon.waitForStatus("the newest location acknowledged") {
            $0["lastLocation"]?["latitude"] == 52.3703 && $0["consecutiveFailures"] == 0
        }
        #expect(try fleet.vehicle("cab-13").lastLocation?.location == LatLng(latitude: 52.3703, longitude: 4.8903))
        #expect(try fleet.vehicle("cab-13").vehicleState == .online)
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
        #expect(try fleet.vehicle("cab-13").vehicleState == .offline)
        let status = try #require(daemon.status)
        #expect((status["updatesFailed"]?.doubleValue ?? 0) >= 2, "the outage is counted: \(status.serialized())")
        #expect((status["failuresByCode"]?["UNAVAILABLE"]?.doubleValue ?? 0) >= 2)
        #expect((status["locationsCoalesced"]?.doubleValue ?? 0) >= 1, "a location waiting during the outage was replaced")
        #expect(daemon.log.contains("warning update-failed: UNAVAILABLE"), "\(daemon.log)")
        #expect(daemon.log.contains("retry_class=retryable"))
    }

    @Test("A final OFFLINE that cannot get through before --stop-timeout exits 3")
    func offlineNotAcknowledged() async throws {
        let fleet = try SharedFleet()
        try fleet.createVehicle("cab-7")
        let daemon = try DaemonProcess(fleet.transportArguments + ["--vehicle", "cab-7", "--source", "jsonl:-", "--speedup", "10",
                                                                     "--stop-timeout", "2s"], folder: fleet.folder)
        daemon.write(#"{"lat": 52.37, "lng": 4.89}"#)
        try await daemon.waitForStatus("the first update acknowledged") { ($0["updatesSucceeded"]?.doubleValue ?? 0) >= 1 }
        let lock = try fleet.lockWrites()
        daemon.signal(SIGTERM)
        let status = try daemon.waitForExit()
        lock.release()
        #expect(status == 3, "\(daemon.log)")
        #expect(daemon.log.contains("error offline-not-acknowledged"))
        #expect(try fleet.vehicle("cab-7").vehicleState == .online)
        #expect(daemon.status?["state"] == "OFFLINE_NOT_ACKNOWLEDGED")
    }

    @Test("NMEA from standard input: bad sentences are counted, the end of input stops with the last fix OFFLINE")
    func nmeaFromStandardInput() throws {
        let fleet = try SharedFleet()
        try fleet.createVehicle("cab-8")
        func sentence(_ body: String) -> String {
            "$" + body + "*" + String(format: "%02X", body.utf8.reduce(UInt8(0)) { $0 ^ $1 })
        }
        let daemon = try DaemonProcess(fleet.transportArguments + ["--vehicle", "cab-8", "--source", "nmea:-", "--speedup", "10"],
                                       folder: fleet.folder)
        daemon.write(sentence("GPRMC,120000,A,5222.386,N,00453.556,E,10.0,90.0,010524,,"),
                     "$GPRMC,120001,A,5222.386,N,00453.570,E,10.0,90.0,010524,,*00",
                     sentence("GPGGA,120002,5222.386,N,00453.584,E,1,08,0.9,1.0,M,40.0,M,,"),
                     sentence("GPRMC,120002,A,5222.386,N,00453.584,E,10.0,90.0,010524,,"))
        daemon.closeInput()
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
        let vehicle = try fleet.vehicle("cab-8")
        #expect(vehicle.vehicleState == .offline)
        let location = try #require(vehicle.lastLocation?.location)
        #expect(abs(location.longitude - (4 + 53.584 / 60)) < 1e-9)
        #expect(daemon.status?["badSentences"] == 1)
        #expect(daemon.log.contains("checksum mismatch"))
    }
}
