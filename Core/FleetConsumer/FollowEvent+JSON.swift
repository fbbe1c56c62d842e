import FleetGeo
import FleetModel

extension FollowEvent {
    /// The event as one JSON object with stable keys: `event`, the followed thing's name under
    /// `trip` or `shipment`, `time` (RFC 3339, when the follower observed it) and `value` (per kind;
    /// see docs/consumer-follow.md).
    public var json: JSON {
        var object = JSONObject()
        object["event"] = .string(kind.rawValue)
        object[Kind.subjectKey] = .string(name)
        object["time"] = .string(time.rfc3339String)
        object["value"] = value.json(observedAt: time)
        return .object(object)
    }

    /// The event as one line of compact JSON (without the new line).
    public var jsonLine: String { json.serialized() }
}

extension FollowEventValue {
    /// The value's JSON; ETAs count their `secondsLeft` from `observedAt`.
    public func json(observedAt: Timestamp) -> JSON {
        switch self {
        case .changes(let parts, let snapshot):
            var object: JSONObject = ["changed": .array(parts.map { .string($0.name) })]
            switch snapshot {
            case .trip(let trip): object["trip"] = trip.toJSON()
            case .taskTrackingInfo(let info): object["taskTrackingInfo"] = info.toJSON()
            }
            return .object(object)
        case .status(let status):
            return status.map { .string($0.name) } ?? .null
        case .distance(let meters):
            return meters.map { .number(Double($0)) } ?? .null
        case .route(let points):
            let encoded = Polyline.encode(points.map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) })
            return ["points": .number(Double(points.count)), "encodedPolyline": .string(encoded)]
        case .vehicle(let fix):
            return fix?.json ?? .null
        case .location(let point):
            return point?.toJSON() ?? .null
        case .eta(let eta):
            guard let eta else { return .null }
            return ["eta": .string(eta.rfc3339String), "secondsLeft": .number(Double(ReadableText.secondsLeft(until: eta, from: observedAt)))]
        case .waypoints(let waypoints):
            return .array(waypoints.map { $0.withoutPaths.toJSON() })
        case .destinations(let points):
            return .array(points.map { $0.toJSON() })
        case .traffic(let traffic):
            guard let traffic else { return .null }
            return ["speedReadingIntervals": .array(traffic.speedReadingInterval.map { $0.toJSON() })]
        case .stops(let count):
            guard let count else { return .null }
            return ["remainingStopCount": .number(Double(count)), "stopsBefore": .number(Double(max(0, count - 1)))]
        case .taskState(let state):
            return state.map { .string($0.name) } ?? .null
        case .outcome(let outcome, let time):
            guard let outcome else { return .null }
            return ["outcome": .string(outcome.name), "time": time.map { .string($0.rfc3339String) } ?? .null]
        case .window(let window):
            return window?.toJSON() ?? .null
        case .staleness(let stale, let age, let since):
            return ["stale": .bool(stale), "ageSeconds": .number(age.rounded()), "locationTime": .string(since.rfc3339String)]
        case .failure(let failure):
            return failure.json
        }
    }
}

extension FollowFailure {
    /// `{"code", "number", "message", "field", "causeId", "cause", "remedy", "recovering",
    /// "retryInSeconds", "attempt"}`; `field` and `causeId` are null when unknown, `retryInSeconds`
    /// when the follower gives up.
    public var json: JSON {
        var object = JSONObject()
        object["code"] = .string(error.code.name)
        object["number"] = .number(Double(error.code.rawValue))
        object["message"] = .string(error.message)
        object["field"] = error.field.map(JSON.string) ?? .null
        object["causeId"] = causeID.map(JSON.string) ?? .null
        object["cause"] = .string(cause)
        object["remedy"] = .string(remedy)
        object["recovering"] = .bool(isRecovering)
        object["retryInSeconds"] = retryInSeconds.map { .number(($0 * 1000).rounded() / 1000) } ?? .null
        object["attempt"] = .number(Double(attempt))
        return .object(object)
    }
}

extension VehicleFix {
    /// `{"latitude", "longitude", "heading", "speed", "accuracy"}`: degrees, metres a second, metres;
    /// each of the last three null when not reported.
    public var json: JSON {
        var object = JSONObject()
        object["latitude"] = .number(location.latitude)
        object["longitude"] = .number(location.longitude)
        object["heading"] = heading.map { .number(Double($0)) } ?? .null
        object["speed"] = speed.map(JSON.number) ?? .null
        object["accuracy"] = accuracy.map(JSON.number) ?? .null
        return .object(object)
    }
}
