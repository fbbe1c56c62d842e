import FleetGeo
import FleetModel
import Foundation
import Glibc
import Testing

/// gpsfake (Debian's gpsd-clients) feeds a real gpsd from an NMEA log; `make setup` installs it.
enum Gpsfake {
    static let path: String? = ["/usr/bin/gpsfake", "/usr/local/bin/gpsfake"].first { FileManager.default.isExecutableFile(atPath: $0) }
    /// Whether gpsfake can run here.
    static let isAvailable = path != nil

    /// Ends gpsfake and its gpsd: SIGTERM to the process group, then SIGKILL if still there after 2 s
    /// (children of the test runner inherit its blocked signal mask, so SIGTERM may never arrive).
    static func end(_ process: Process) {
        let group = process.processIdentifier
        guard group > 0 else { return }
        kill(-group, SIGTERM)
        for _ in 0..<100 where process.isRunning { usleep(20_000) }
        kill(-group, SIGKILL)
        process.waitUntilExit()
    }

    /// A TCP port nothing listens on now.
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(bound == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The shared NMEA logs (`shared/data/nmea` beside the repository).
    static func log(_ name: String, file: String = #filePath) throws -> URL {
        var candidates: [URL] = []
        if let shared = ProcessInfo.processInfo.environment["FLEET_SHARED_DIR"] { candidates.append(URL(fileURLWithPath: shared)) }
        let repository = URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(repository.deletingLastPathComponent().appendingPathComponent("shared"))
        candidates.append(URL(fileURLWithPath: "/work/shared"))
        let found = candidates.map { $0.appendingPathComponent("data/nmea/\(name)") }.first { FileManager.default.fileExists(atPath: $0.path) }
        return try #require(found, "the shared NMEA log \(name) is missing (shared/data/nmea beside the repository)")
    }

    /// Every valid fix of a log, in order, read without the project's decoder: GGA with quality > 0
    /// and RMC with status A whose checksum is right.
    static func fixes(in text: String) -> [GeoPoint] {
        var fixes: [GeoPoint] = []
        for raw in text.split(whereSeparator: \.isNewline) {
            guard let dollar = raw.lastIndex(of: "$"), let star = raw.lastIndex(of: "*"), star > dollar else { continue }
            let body = raw[raw.index(after: dollar)..<star]
            guard UInt8(raw[raw.index(after: star)...].prefix(2), radix: 16) == body.utf8.reduce(UInt8(0), { $0 ^ $1 }) else { continue }
            let f = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            func degrees(_ value: String, _ hemisphere: String) -> Double? {
                guard let number = Double(value) else { return nil }
                let whole = (number / 100).rounded(.down)
                let value = whole + (number - whole * 100) / 60
                return hemisphere == "S" || hemisphere == "W" ? -value : value
            }
            if f[0].hasSuffix("GGA"), f.count > 6, (Int(f[6]) ?? 0) > 0, let lat = degrees(f[2], f[3]), let lon = degrees(f[4], f[5]) {
                fixes.append(GeoPoint(latitude: lat, longitude: lon))
            } else if f[0].hasSuffix("RMC"), f.count > 6, f[2] == "A", let lat = degrees(f[3], f[4]), let lon = degrees(f[5], f[6]) {
                fixes.append(GeoPoint(latitude: lat, longitude: lon))
            }
        }
        return fixes
    }
}

@Suite("driver-report against a real gpsd fed by gpsfake", .serialized)
struct GPSDReplayTests {
    @Test("The vehicle's last location in the engine matches the log gpsd was fed, reported to fleet-admin serve",
          .enabled(if: Gpsfake.isAvailable, "gpsfake is not installed (Debian package gpsd-clients, with gpsd): `make setup` installs them"))
    func reportsWhatGpsdSees() async throws {
        let fleet = try SharedFleet(overHTTP: true)
        try fleet.createVehicle("boat-1")
        let log = try Gpsfake.log("haicom-305N.log")
        let fixes = Gpsfake.fixes(in: try String(contentsOf: log, encoding: .isoLatin1))
        let lastFix = try #require(fixes.last)

        let port = try Gpsfake.freePort()
        // Foundation starts gpsfake as the leader of a process group of its own, so it and its gpsd are ended
        // together (gpsfake does not always end on SIGTERM alone).
        let gpsfake = Process()
        gpsfake.executableURL = URL(fileURLWithPath: try #require(Gpsfake.path))
        // -1: play the log once; -c: seconds between sentences; -s: the pty's speed. gpsfake starts playing
        // when a client connects.
        gpsfake.arguments = ["-P", String(port), "-1", "-q", "-c", "0.01", "-s", "115200", log.path]
        gpsfake.standardOutput = FileHandle.nullDevice
        gpsfake.standardError = FileHandle.nullDevice
        gpsfake.environment = Products.quietEnvironment(home: fleet.folder)
        try gpsfake.run()
        defer { Gpsfake.end(gpsfake) }
        try #require(getpgid(gpsfake.processIdentifier) == gpsfake.processIdentifier, "gpsfake leads its own process group")

        // gpsfake starts its gpsd in the background: driver-report retries until it answers.
        let daemon = try DaemonProcess(fleet.transportArguments + [
            "--vehicle", "boat-1", "--source", "gpsd://127.0.0.1:\(port)", "--interval", "5s", "--speedup", "10",
        ], folder: fleet.folder)
        // gpsd plays the whole log within seconds; the reporter sends the newest fix every 0.5 s of real time.
        // (gpsfake itself stays up while a client is connected, so its exit is not the signal.)
        try await daemon.waitForStatus(timeout: 90, "the log's last fix acknowledged") { status in
            guard let latitude = status["lastLocation"]?["latitude"]?.doubleValue,
                  let longitude = status["lastLocation"]?["longitude"]?.doubleValue else { return false }
            return Geodesy.distance(GeoPoint(latitude: latitude, longitude: longitude), lastFix) < 0.2
        }
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")

        let vehicle = try fleet.vehicle("boat-1")
        #expect(vehicle.vehicleState == .offline)
        let reported = try #require(point(vehicle.lastLocation))
        #expect(Geodesy.distance(reported, lastFix) < 0.2, "reported \(reported), the log ends at \(lastFix)")
        let status = try #require(daemon.status)
        #expect((status["locationsReceived"]?.doubleValue ?? 0) >= 5)
        #expect((status["updatesSucceeded"]?.doubleValue ?? 0) >= 2)
        #expect(status["droppedJumps"] == 0)
        #expect(daemon.log.contains("notice source-connected: connected to gpsd 127.0.0.1:\(port)"))
    }
}
