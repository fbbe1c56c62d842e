import FleetTestSupport
import Foundation
import Testing

/// Traffic on a rider's route from what the fleet just drove, through a running `fleet-admin serve`: the trip's
/// `currentRouteSegmentTraffic` over REST, and consumer-follow's `activeRouteTraffic`.
@Suite("Live traffic on the rider's route")
struct LiveTrafficServeTests {
    /// 61 points east along 52.5°N from 13.400 to 13.460 (~4 km), as an encoded polyline.
    static let road = "_|l_I_expA" + String(repeating: "?gE", count: 60)
    /// About 67.7 m per 0.001° of longitude at 52.5°N.
    static let metersPerThousandth = 67.71

    /// Longitude `meters` east of 13.40 along the road.
    static func longitude(_ meters: Double) -> Double { 13.40 + meters / metersPerThousandth * 0.001 }

    static func rfc3339(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }

    /// PATCHes a vehicle over REST; answers the status and body.
    static func patch(_ base: String, vehicle: String, mask: String, _ body: String) throws -> RawHTTP.Answer {
        try RawHTTP.exchange(base, RawHTTP.request("PATCH", "/v1/providers/demo/vehicles/\(vehicle)?updateMask=\(mask)",
                                                   headers: [("Content-Type", "application/json")], body: Array(body.utf8)))
    }

    @Test func aStretchTheFleetJustCrawledIsAJamOnTheTripAndInConsumerFollow() throws {
        let fleet = try AdminFleet(.http)
        let base = try #require(fleet.baseURL)
        // The road learned at 12 m/s: three drives east, at 06:00, 12:00 and 18:00 UTC of one Monday.
        var csv = "trip_id,timestamp,latitude,longitude\n"
        for (drive, hour) in [6.0, 12.0, 18.0].enumerated() {
            let start = 1_769_385_600 + hour * 3600
            for t in stride(from: 0.0, through: 4000 / 12, by: 5) {
                csv += "d\(drive),\(Int(start + t)),52.5,\(Self.longitude(t * 12))\n"
            }
        }
        let traces = try fleet.write("drives.csv", csv)
        let learned = try BinaryRunner(product: "fleet-admin").run(
            ["--transport", "memory", "--store", fleet.storeURL, "--provider", "demo", "speeds", "learn", "--traces", traces])
        #expect(learned.status == 0, "\(learned)")

        // Another vehicle, on no trip, crawled 2,000–2,600 m at 2 m/s over the last five minutes.
        try fleet.succeed(["vehicles", "create", "other", "--capacity", "4", "--state", "online", "--location", "52.5,13.40"])
        let started = Date().timeIntervalSince1970 - 310
        for step in 0...30 {
            let meters = 2000 + Double(step) * 20
            let answer = try Self.patch(base, vehicle: "other", mask: "lastLocation", """
                {"lastLocation":{"location":{"latitude":52.5,"longitude":\(Self.longitude(meters))},"updateTime":"\(Self.rfc3339(started + Double(step) * 10))"}}
                """)
            #expect(answer.status == 200, "\(answer.body)")
        }

        // The rider's car starts at the road's west end, on the road.
        try fleet.succeed(["vehicles", "create", "car-1", "--capacity", "4", "--state", "online", "--location", "52.5,13.40"])
        try fleet.succeed(["trips", "create", "trip-1", "--pickup", "52.5,13.42", "--dropoff", "52.5,13.46", "--vehicle", "car-1"])
        let route = try Self.patch(base, vehicle: "car-1", mask: "currentRouteSegment", #"{"currentRouteSegment":"\#(Self.road)"}"#)
        #expect(route.status == 200, "\(route.body)")
        let moved = try Self.patch(base, vehicle: "car-1", mask: "lastLocation", #"{"lastLocation":{"location":{"latitude":52.5,"longitude":13.401}}}"#)
        #expect(moved.status == 200, "\(moved.body)")

        let trip = try RawHTTP.exchange(base, RawHTTP.request("GET", "/v1/providers/demo/trips/trip-1"))
        #expect(trip.status == 200)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(trip.body.utf8)) as? [String: Any])
        let traffic = try #require(json["currentRouteSegmentTraffic"] as? [String: Any], "\(trip.body)")
        let intervals = try #require(traffic["speedReadingInterval"] as? [[String: Any]])
        let jams = intervals.filter { $0["speed"] as? String == "TRAFFIC_JAM" }
        #expect(jams.count == 1, "\(intervals)")
        // Points 29.5 to 38.4 of the road, give or take a piece of 50 m.
        let first = jams.first?["startPolylinePointIndex"] as? Int ?? -1
        let last = jams.first?["endPolylinePointIndex"] as? Int ?? -1
        #expect((27...31).contains(first) && (37...40).contains(last), "\(jams)")
        #expect(json["currentRouteSegmentTrafficVersion"] != nil)

        // The server's /metrics shows the tables it read for the car's ETAs: the learned 4 km, about 80 pieces of 50 m.
        let metrics = try RawHTTP.exchange(base, RawHTTP.request("GET", "/metrics"))
        #expect(metrics.body.contains("fleet_learned_etas_enabled 1\n"), "\(metrics.body)")
        let pieces = metrics.body.split(separator: "\n").first { $0.hasPrefix(#"fleet_learned_road_pieces{provider="demo"} "#) }
        #expect(pieces.flatMap { Int($0.split(separator: " ").last ?? "") }.map { $0 >= 75 } == true, "\(metrics.body)")

        // The rider's follower shows it.
        let follow = try BinaryRunner(product: "consumer-follow").run(
            ["--transport", base, "--provider", "demo", "trip-1", "--json", "--deadline", "3s"])
        let event = follow.output.split(separator: "\n").first { $0.contains(#""activeRouteTraffic""#) }
        #expect(event?.contains("TRAFFIC_JAM") == true, "\(follow)")
    }

    @Test func learnedETAsOffShowNoLiveTraffic() throws {
        let fleet = try AdminFleet(.http, serverArguments: ["--learned-etas", "off"])
        let base = try #require(fleet.baseURL)
        try fleet.succeed(["vehicles", "create", "other", "--capacity", "4", "--state", "online", "--location", "52.5,13.40"])
        let started = Date().timeIntervalSince1970 - 310
        for step in 0...30 {
            _ = try Self.patch(base, vehicle: "other", mask: "lastLocation", """
                {"lastLocation":{"location":{"latitude":52.5,"longitude":\(Self.longitude(2000 + Double(step) * 20))},"updateTime":"\(Self.rfc3339(started + Double(step) * 10))"}}
                """)
        }
        try fleet.succeed(["vehicles", "create", "car-1", "--capacity", "4", "--state", "online", "--location", "52.5,13.40"])
        try fleet.succeed(["trips", "create", "trip-1", "--pickup", "52.5,13.42", "--dropoff", "52.5,13.46", "--vehicle", "car-1"])
        _ = try Self.patch(base, vehicle: "car-1", mask: "currentRouteSegment", #"{"currentRouteSegment":"\#(Self.road)"}"#)
        _ = try Self.patch(base, vehicle: "car-1", mask: "lastLocation", #"{"lastLocation":{"location":{"latitude":52.5,"longitude":13.401}}}"#)
        let trip = try RawHTTP.exchange(base, RawHTTP.request("GET", "/v1/providers/demo/trips/trip-1"))
        #expect(trip.status == 200 && !trip.body.contains("currentRouteSegmentTraffic"), "\(trip.body)")
        let metrics = try RawHTTP.exchange(base, RawHTTP.request("GET", "/metrics"))
        #expect(metrics.body.contains("fleet_learned_etas_enabled 0\n") && !metrics.body.contains("fleet_learned_road_pieces{"),
                "\(metrics.body)")
    }
}
