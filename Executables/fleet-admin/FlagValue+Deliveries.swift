import FleetCLI
import FleetModel

/// Parsers for the values of the Deliveries commands' flags (`delivery-vehicles`, `tasks`).
extension FlagValue {
    /// One attribute `KEY=VALUE`, the value taken whole (commas and `=` included); nil for an empty
    /// text, which stands for "no attributes" (`--attribute ''`).
    static func attribute<Attribute: KeyedAttribute>(_ text: String) throws(ArgumentProblem) -> Attribute? {
        if text.trimmingCharacters(in: .whitespaces).isEmpty { return nil }
        guard let equals = text.firstIndex(of: "=") else {
            throw ArgumentProblem("is not KEY=VALUE (write --attribute k=v, once per attribute)")
        }
        let key = text[..<equals].trimmingCharacters(in: .whitespaces)
        guard !key.isEmpty else { throw ArgumentProblem("has an empty key (write --attribute k=v)") }
        return Attribute.string(key: key, value: String(text[text.index(after: equals)...]))
    }

    /// A stop of a delivery vehicle, `LAT,LNG:TASK[,TASK…][:STATE]`: where it is, the IDs of the tasks
    /// done there, and its state (new, enroute or arrived; new when left out). Task IDs cannot hold
    /// `:` or `,` (Fleet Engine's ID rules), so the form is unambiguous.
    static func vehicleStop(_ text: String) throws(ArgumentProblem) -> VehicleJourneySegment {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 || parts.count == 3 else {
            throw ArgumentProblem("is not LAT,LNG:TASK[,TASK…][:STATE] (like 52.52,13.40:task-1,task-2)")
        }
        let point: LatLng
        do {
            point = try latLng(parts[0])
        } catch {
            throw ArgumentProblem("starts with '\(parts[0])', which is not LAT,LNG (write LAT,LNG:TASK[,TASK…][:STATE])")
        }
        let tasks = words(parts[1])
        guard !tasks.isEmpty else {
            throw ArgumentProblem("names no task after the ':' (write LAT,LNG:TASK[,TASK…][:STATE])")
        }
        var state = VehicleStop.State.new
        if parts.count == 3 {
            do {
                state = try enumValue(parts[2], accepted: Vocabulary.stopStates)
            } catch {
                throw ArgumentProblem("ends with the state '\(parts[2])', which \(error.message)")
            }
        }
        return VehicleJourneySegment(stop: VehicleStop(
            plannedLocation: LocationInfo(point: point), tasks: tasks.map { VehicleStop.TaskInfo(taskId: $0) }, state: state))
    }

    /// `LOW_LAT,LOW_LNG,HIGH_LAT,HIGH_LNG`: the south-west and north-east corners of a viewport.
    static func viewport(_ text: String) throws(ArgumentProblem) -> Viewport {
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4, let south = numbers[0], let west = numbers[1], let north = numbers[2], let east = numbers[3],
              [south, west, north, east].allSatisfy(\.isFinite) else {
            throw ArgumentProblem("is not LOW_LAT,LOW_LNG,HIGH_LAT,HIGH_LNG (like 52.50,13.35,52.55,13.45)")
        }
        return Viewport(low: LatLng(latitude: south, longitude: west), high: LatLng(latitude: north, longitude: east))
    }

    /// An RFC 3339 time (`2026-03-01T09:00:00Z`, `2026-03-01T10:00:00+01:00`).
    static func timestamp(_ text: String) throws(ArgumentProblem) -> Timestamp {
        guard let time = try? Timestamp(rfc3339: text.trimmingCharacters(in: .whitespaces)) else {
            throw ArgumentProblem("is not an RFC 3339 time (like 2026-03-01T09:00:00Z)")
        }
        return time
    }

    /// `FROM,TO`: two RFC 3339 times, the start and end of a time window.
    static func timeWindow(_ text: String) throws(ArgumentProblem) -> TimeWindow {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, let start = try? timestamp(parts[0]), let end = try? timestamp(parts[1]) else {
            throw ArgumentProblem("is not FROM,TO in RFC 3339 (like 2026-03-01T09:00:00Z,2026-03-01T12:00:00Z)")
        }
        return TimeWindow(startTime: start, endTime: end)
    }
}
