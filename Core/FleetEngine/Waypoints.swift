import FleetErrors
import FleetModel

/// The rules for a vehicle's ordered waypoints across its trips.
enum WaypointOrder {
    /// Checks an ordering: each trip's pickup before its intermediate destinations before its dropoff,
    /// and an EXCLUSIVE trip's waypoints never interleaved with another trip's.
    static func validate(_ waypoints: [TripWaypoint], trips: [String: TripType], field: String) throws {
        var stage: [String: Int] = [:]
        var finished = Set<String>()
        var previous: String?
        for (i, w) in waypoints.enumerated() {
            let trip = w.tripId ?? ""
            let rank: Int
            switch w.waypointType ?? .unknownWaypointType {
            case .pickupWaypointType: rank = 0
            case .intermediateDestinationWaypointType: rank = 1
            case .dropOffWaypointType: rank = 2
            default:
                throw FleetError.invalidArgument("\(field)[\(i)].waypointType must be PICKUP_WAYPOINT_TYPE, INTERMEDIATE_DESTINATION_WAYPOINT_TYPE or DROP_OFF_WAYPOINT_TYPE", field: "\(field)[\(i)].waypointType")
            }
            if let last = stage[trip], rank < last {
                throw FleetError.invalidArgument("\(field)[\(i)]: trip '\(trip)' visits its pickup, intermediate destinations and dropoff out of order", field: "\(field)[\(i)]")
            }
            if finished.contains(trip) && trips[trip] == .exclusive {
                throw FleetError.invalidArgument("\(field)[\(i)]: the waypoints of EXCLUSIVE trip '\(trip)' are interleaved with another trip's", field: "\(field)[\(i)]")
            }
            if let previous, previous != trip {
                finished.insert(previous)
                if trips[trip] == .exclusive && stage[trip] != nil {
                    throw FleetError.invalidArgument("\(field)[\(i)]: the waypoints of EXCLUSIVE trip '\(trip)' are interleaved with another trip's", field: "\(field)[\(i)]")
                }
            }
            stage[trip] = rank
            previous = trip
        }
    }

    /// Replaces one trip's waypoints in a vehicle's list with `remaining`, keeping the positions of
    /// those that stay (matched per type from the end, since a trip consumes its waypoints from the front).
    static func replace(in waypoints: [TripWaypoint], tripID: String, with remaining: [TripWaypoint]) -> [TripWaypoint] {
        let oldIndices = waypoints.indices.filter { waypoints[$0].tripId == tripID }
        var oldByType: [String: [Int]] = [:]
        for i in oldIndices { oldByType[(waypoints[i].waypointType ?? .unknownWaypointType).name, default: []].append(i) }
        var newByType: [String: [TripWaypoint]] = [:]
        for w in remaining { newByType[(w.waypointType ?? .unknownWaypointType).name, default: []].append(w) }

        var replacement: [Int: TripWaypoint] = [:]
        var unmatched = false
        for (type, news) in newByType {
            let olds = oldByType[type] ?? []
            let k = min(olds.count, news.count)
            for j in 0..<k { replacement[olds[olds.count - k + j]] = news[news.count - k + j] }
            if news.count > k { unmatched = true }
        }
        if unmatched {
            // The trip gained waypoints: put its whole remaining list where its first one was (or at the end).
            var others = waypoints.filter { $0.tripId != tripID }
            let position = oldIndices.first.map { first in waypoints[..<first].filter { $0.tripId != tripID }.count } ?? others.count
            others.insert(contentsOf: remaining, at: position)
            return others
        }
        return waypoints.indices.compactMap { i in
            waypoints[i].tripId == tripID ? replacement[i] : waypoints[i]
        }
    }
}

extension TripWaypoint {
    /// The waypoint as stored on a vehicle: only trip, type and place (what orders and compares).
    var essentials: TripWaypoint {
        TripWaypoint(location: location, tripId: tripId, waypointType: waypointType)
    }
}
