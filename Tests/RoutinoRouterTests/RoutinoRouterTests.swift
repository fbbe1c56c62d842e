import FleetErrors
import FleetGeo
import FleetRouting
import FleetTestSupport
import Foundation
import RoutinoRouter
import Synchronization
import Testing

@Suite(.enabled(if: HelsinkiMap.directory != nil, "\(HelsinkiMap.missing)"))
struct RoutinoRouterTests {
    let router: RoutinoRouter

    init() throws {
        router = try RoutinoRouter(directory: HelsinkiMap.directory!)
    }

    /// Seeded random pairs inside the map: the same route as `routino-router`, to the metre (its
    /// sections are printed to 1 m) and to its rounding of time (0.1 min a section); a pair it cannot
    /// route is ROUTE_NOT_FOUND here too.
    @Test func routesMatchRoutinosOwnRouter() throws {
        let points = HelsinkiMap.randomPoints(count: 24, seed: 15)
        var compared = 0
        for index in stride(from: 0, to: points.count, by: 2) {
            let from = points[index], to = points[index + 1]
            let oracle = try RoutinoOracle.route(directory: HelsinkiMap.directory!, from: from, to: to)
            let outcome = Result { () throws(FleetError) -> RoutePlan in try router.route(RouteRequest(from: from, to: to, category: .auto)) }
            if case .failure(let error) = outcome {
                #expect(oracle == nil, "we found no route \(from) → \(to) but routino-router did: \(error)")
                #expect(error.code == .notFound && error.cause == ErrorCause.routeNotFound.id, "\(error)")
                #expect(error.message.contains("route from the start \(from) to the destination \(to)") && error.field == "to",
                        "\(error)")
                continue
            }
            let plan = try outcome.get()
            let answer = try #require(oracle, "routino-router found no route \(from) → \(to), we did")
            compared += 1
            #expect(!plan.isEstimate)
            #expect(abs(plan.distanceMeters - answer.meters) <= 0.5 * Double(answer.sections) + 2,
                    "\(from) → \(to): \(plan.distanceMeters) m, routino-router \(answer.meters) m")
            #expect(abs(plan.durationSeconds - answer.seconds) <= 3 * Double(answer.sections) + 1,
                    "\(from) → \(to): \(plan.durationSeconds) s, routino-router \(answer.seconds) s")
            #expect(Geodesy.distance(plan.points[0], answer.first) < 1)
            #expect(Geodesy.distance(plan.points[plan.points.count - 1], answer.last) < 1)
            #expect(zip(plan.cumulativeMeters, plan.cumulativeMeters.dropFirst()).allSatisfy { $0 <= $1 })
            #expect(zip(plan.cumulativeSeconds, plan.cumulativeSeconds.dropFirst()).allSatisfy { $0 <= $1 })
            #expect(plan.waypointIndices == [0, plan.points.count - 1])
            // Driving time is minutes in Routino's output: seconds at city speeds, not hours or milliseconds.
            let speed = plan.distanceMeters / plan.durationSeconds * 3.6
            #expect((10...70).contains(speed), "\(speed) km/h")
        }
        #expect(compared >= 8, "only \(compared) of 12 pairs had a route")
    }

    /// Along a one-way street the route is the street; against it the car must go round.
    @Test func oneWayStreetsAreRespected() throws {
        let streets = try HelsinkiMap.oneWayStreets().filter { street in
            zip(street, street.dropFirst()).reduce(0) { $0 + Geodesy.distance($1.0, $1.1) } > 120
        }
        try #require(streets.count >= 5, "the map has \(streets.count) one-way streets over 120 m")
        for street in streets.prefix(5) {
            let route = Route(points: street)!
            let a = route.location(atMeters: route.totalMeters * 0.25), b = route.location(atMeters: route.totalMeters * 0.75)
            let start = route.point(onSegment: a.segmentIndex, fraction: a.fraction)
            let end = route.point(onSegment: b.segmentIndex, fraction: b.fraction)
            let along = try router.route(RouteRequest(from: start, to: end, category: .auto))
            let against = try router.route(RouteRequest(from: end, to: start, category: .auto))
            #expect(along.distanceMeters <= route.totalMeters * 0.5 + 5, "along \(street.first!): \(along.distanceMeters) m")
            #expect(against.distanceMeters > along.distanceMeters + 50,
                    "against the one-way street at \(street.first!): \(against.distanceMeters) m, along \(along.distanceMeters) m")
            // On foot the direction does not matter.
            let walkAlong = try router.route(RouteRequest(from: start, to: end, category: .pedestrian))
            let walkAgainst = try router.route(RouteRequest(from: end, to: start, category: .pedestrian))
            #expect(abs(walkAlong.distanceMeters - walkAgainst.distanceMeters) < 5)
        }
    }

    @Test func aPointOffTheMapIsNamed() throws {
        let inside = GeoPoint(latitude: 60.16675, longitude: 24.94956)
        let farNorth = GeoPoint(latitude: 60.30, longitude: 24.94)
        for (request, field) in [(RouteRequest(from: farNorth, to: inside), "from"),
                                 (RouteRequest(from: inside, to: farNorth), "to"),
                                 (RouteRequest(from: inside, to: inside, via: [farNorth]), "via[0]")] {
            let error = try #require(throws: FleetError.self) { try router.route(request) }
            #expect(error.code == .invalidArgument)
            #expect(error.cause == ErrorCause.pointOffMap.id)
            #expect(error.field == field)
            #expect(error.message.contains(field) && error.message.contains("60.3"), "\(error.message)")
        }
    }

    /// A via is passed in order, and the plan says where each waypoint is reached.
    @Test func viasAreVisitedInOrder() throws {
        let from = GeoPoint(latitude: 60.16675, longitude: 24.94956)
        let via = GeoPoint(latitude: 60.17088, longitude: 24.94496)
        let to = GeoPoint(latitude: 60.17493, longitude: 24.94008)
        let whole = try router.route(RouteRequest(from: from, to: to, via: [via]))
        let first = try router.route(RouteRequest(from: from, to: via))
        let second = try router.route(RouteRequest(from: via, to: to))
        #expect(whole.waypointIndices.count == 3)
        let atVia = whole.arrival(atWaypoint: 1)
        #expect(abs(atVia.meters - first.distanceMeters) < 15, "\(atVia.meters) against \(first.distanceMeters)")
        #expect(abs(whole.distanceMeters - first.distanceMeters - second.distanceMeters) < 30)
        #expect(Geodesy.distance(whole.points[whole.waypointIndices[1]], via) < 200)
    }

    /// Routino crashes with two routes at once: the plugin serialises what must be, and many threads
    /// get exactly one thread's answers.
    @Test func manyThreadsGetOneThreadsAnswers() throws {
        let points = HelsinkiMap.randomPoints(count: 120, seed: 99)
        let requests = stride(from: 0, to: points.count, by: 2).map { RouteRequest(from: points[$0], to: points[$0 + 1]) }
        func answer(_ request: RouteRequest) -> String {
            do {
                let plan = try router.route(request)
                return "\(plan.points.count) \(plan.distanceMeters) \(plan.durationSeconds) \(plan.encodedPolyline)"
            } catch {
                return "\(error)"
            }
        }
        // A fresh router, so that the threads also race to snap points rather than reading a warm cache.
        let expected = requests.map(answer)
        let fresh = try RoutinoRouter(directory: HelsinkiMap.directory!)
        let results = Mutex([String?](repeating: nil, count: requests.count * 4))
        // Six threads on however many cores, each taking every sixth request of four rounds.
        let threads = 6, total = requests.count * 4
        let group = DispatchGroup()
        for thread in 0..<threads {
            group.enter()
            Thread {
                for index in stride(from: thread, to: total, by: threads) {
                    let text: String
                    do {
                        let plan = try fresh.route(requests[index % requests.count])
                        text = "\(plan.points.count) \(plan.distanceMeters) \(plan.durationSeconds) \(plan.encodedPolyline)"
                    } catch {
                        text = "\(error)"
                    }
                    results.withLock { $0[index] = text }
                }
                group.leave()
            }.start()
        }
        group.wait()
        let answers = results.withLock { $0 }
        for index in answers.indices {
            #expect(answers[index] == expected[index % requests.count], "request \(index % requests.count)")
        }
    }

    /// A leg with no road between its ends is NOT_FOUND naming both ends by role and point, and the
    /// field of the waypoint it could not reach.
    @Test func aLegWithoutARoadIsNamed() throws {
        let start = GeoPoint(latitude: 60.165, longitude: 24.93), destination = GeoPoint(latitude: 60.17, longitude: 24.94)
        let outcome = Result { () throws(FleetError) -> RoutePlan in try router.route(RouteRequest(from: start, to: destination)) }
        guard case .failure(let error) = outcome else {
            Issue.record("a route between \(start) and \(destination), which the map does not connect")
            return
        }
        #expect(error.code == .notFound && error.field == "to", "\(error)")
        #expect(error.message.contains("no motorcar route from the start \(start) to the destination \(destination)"), "\(error)")
    }

    @Test func categoriesUseTheirOwnProfiles() throws {
        #expect(RoutinoRouter.profileName(for: .auto) == "motorcar")
        #expect(RoutinoRouter.profileName(for: .taxi) == "motorcar")
        #expect(RoutinoRouter.profileName(for: .truck) == "goods")
        #expect(RoutinoRouter.profileName(for: .bicycle) == "bicycle")
        #expect(RoutinoRouter.profileName(for: .pedestrian) == "foot")
        let from = GeoPoint(latitude: 60.16675, longitude: 24.94956), to = GeoPoint(latitude: 60.17493, longitude: 24.94008)
        let car = try router.route(RouteRequest(from: from, to: to, category: .auto))
        let walk = try router.route(RouteRequest(from: from, to: to, category: .pedestrian))
        #expect(walk.durationSeconds > car.durationSeconds * 2, "walking \(walk.durationSeconds) s, driving \(car.durationSeconds) s")
    }

    @Test func aFolderWithoutADatabaseIsAClearError() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-map-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        for path in [empty.path, empty.path + "/missing"] {
            let error = try #require(throws: FleetError.self) { try RoutinoRouter(directory: path) }
            #expect(error.code == .failedPrecondition)
            #expect(error.cause == ErrorCause.routingMapUnavailable.id)
            #expect(error.message.contains(path))
        }
    }
}
