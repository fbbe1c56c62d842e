import FleetEngine
import FleetGeo
import FleetLearning

/// Learned tables for tests: what drives along a road teach.
enum LearnedRoads {
    /// What a drive along `points` at `metersPerSecond` teaches, driven once at every hour of one week (from Monday
    /// 2026-01-26 00:00 UTC), a fix every 5 s, learned in the engine's time zone.
    static func everyHour(along points: [GeoPoint], metersPerSecond speed: Double) -> [PieceObservation] {
        let route = Route(points: points)!
        var times = RoadTimes()
        let learner = DriveLearner(utcOffsetSeconds: LearnedETASettings().model.utcOffsetSeconds)
        for hour in stride(from: 0.0, to: 168, by: 1) {
            let start = 1_769_385_600 + hour * 3600
            learner.learn(stride(from: 0.0, through: route.totalMeters / speed, by: 5).map {
                Fix(time: start + $0, position: route.point(atMeters: $0 * speed))
            }, into: &times)
        }
        return times.rows
    }
}
