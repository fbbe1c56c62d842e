import FleetModel

/// Events as one readable line each, for output that is not a terminal:
/// `2026-01-01T00:00:30Z tripStatus ENROUTE_TO_PICKUP`.
public enum PlainEventText {
    /// The line of an event (without the new line): its time, its name and its value in words.
    public static func line<Kind>(_ event: FollowEvent<Kind>) -> String {
        "\(event.time.rfc3339String) \(event.kind.rawValue) \(text(event.value, observedAt: event.time))"
    }

    /// A value in words; ETAs count down from `observedAt`.
    public static func text(_ value: FollowEventValue, observedAt: Timestamp) -> String {
        switch value {
        case .changes(let parts, _):
            return "changed " + parts.map { "\($0.name): \(text($0.value, observedAt: observedAt))" }.joined(separator: " | ")
        case .status(let status):
            return status?.name ?? "unknown"
        case .distance(let meters):
            return meters.map { "\($0) m" } ?? "unknown"
        case .route(let points):
            return points.isEmpty ? "none" : "\(points.count) points"
        case .vehicle(let fix):
            return fix.map(ReadableText.fix) ?? "unknown"
        case .location(let point):
            return point.map(ReadableText.coordinate) ?? "unknown"
        case .eta(let eta):
            guard let eta else { return "unknown" }
            return "\(eta.rfc3339String) (in \(ReadableText.duration(seconds: ReadableText.secondsLeft(until: eta, from: observedAt))))"
        case .waypoints(let waypoints):
            guard !waypoints.isEmpty else { return "none" }
            return waypoints.map(describe).joined(separator: "; ")
        case .destinations(let points):
            return points.isEmpty ? "none" : points.map(ReadableText.coordinate).joined(separator: "; ")
        case .traffic(let traffic):
            guard let intervals = traffic?.speedReadingInterval, !intervals.isEmpty else { return "none" }
            return intervals.map { interval in
                "\(interval.speed?.name ?? "SPEED_UNSPECIFIED") \(interval.startPolylinePointIndex ?? 0)-\(interval.endPolylinePointIndex ?? 0)"
            }.joined(separator: ", ")
        case .stops(let count):
            guard let count else { return "unknown" }
            let before = max(0, count - 1)
            return "\(count) (" + (before == 0 ? "yours is next" : "\(before) stop\(before == 1 ? "" : "s") before yours") + ")"
        case .taskState(let state):
            return state?.name ?? "unknown"
        case .outcome(let outcome, let time):
            guard let outcome else { return "none yet" }
            return outcome.name + (time.map { " at \($0.rfc3339String)" } ?? "")
        case .window(let window):
            guard let window else { return "none" }
            return "\(window.startTime?.rfc3339String ?? "…") to \(window.endTime?.rfc3339String ?? "…")"
        case .staleness(let stale, let age, _):
            let ago = ReadableText.duration(seconds: Int(age.rounded()))
            return stale ? "stale: no position for \(ago); the car may not be where it is shown" : "fresh again (position \(ago) old)"
        case .failure(let failure):
            return describe(failure)
        }
    }

    /// A failure in one line: code, number and message, the catalogue's cause and remedy, what happens next.
    public static func describe(_ failure: FollowFailure) -> String {
        var parts = ["\(failure.error.code.name) (\(failure.error.code.rawValue)): \(failure.error.message)"]
        parts.append("cause: \(failure.causeID.map { "\($0): " } ?? "")\(failure.cause)")
        parts.append("remedy: \(failure.remedy)")
        parts.append(nextStep(failure))
        return parts.joined(separator: "; ")
    }

    /// What the follower does after a failure: `recovering, retrying in 2s`, `needs action, retrying
    /// in 5s (attempt 3)`, `needs action, giving up`; for a trip not found, that it waits for the trip.
    public static func nextStep(_ failure: FollowFailure) -> String {
        let kind = failure.isRecovering ? "recovering" : "needs action"
        guard let wait = failure.retryInSeconds else { return "\(kind), giving up" }
        let attempt = failure.attempt > 1 ? " (attempt \(failure.attempt))" : ""
        if failure.error.code == .notFound { return "waiting for it to be created, checking again in \(seconds(wait))\(attempt)" }
        return "\(kind), retrying in \(seconds(wait))\(attempt)"
    }

    /// The one line shown while the followed thing does not exist (NOT_FOUND, retried): that the
    /// follower waits for it, why, and how to stop; nil for any other failure. A trip followed before
    /// its CreateTrip is common (the rider's app opens first), so this is a wait, not an alarm.
    public static func waitingLine(_ failure: FollowFailure, noun: String = TripModel.noun, name: String) -> String? {
        guard failure.error.code == .notFound, let wait = failure.retryInSeconds else { return nil }
        return "Waiting for \(noun) \(name): it does not exist (NOT_FOUND); following starts once it is created, "
            + "checked every \(seconds(wait)). Ctrl-C stops; --fail-fast exits at once instead."
    }

    private static func seconds(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)s" : "\(tenths / 10).\(tenths % 10)s"
    }

    private static func describe(_ waypoint: TripWaypoint) -> String {
        let role: String
        switch waypoint.waypointType {
        case .pickupWaypointType?: role = "pickup"
        case .dropOffWaypointType?: role = "dropoff"
        case .intermediateDestinationWaypointType?: role = "stop"
        default: role = "waypoint"
        }
        var text = (waypoint.tripId == nil ? "another trip's " : "") + role
        if let point = waypoint.location?.point { text += " at " + ReadableText.coordinate(point) }
        if let meters = waypoint.distanceMeters { text += ", \(meters) m" }
        if let eta = waypoint.eta { text += ", ETA \(eta.rfc3339String)" }
        return text
    }
}
