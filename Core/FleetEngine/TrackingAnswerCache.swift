import FleetModel
import FleetStore
import Synchronization

/// A record an answer was made from, and the version it was read at (nil: there was no such record).
struct ReadVersion: Sendable, Hashable {
    let key: RecordKey
    let version: UInt64?
}

/// GetTaskTrackingInfo's answer, encoded, kept with the records it was made from: while every one of
/// them is still at the version read, the answer is these bytes again. Its two times, the arrival and
/// the completion, are the time of asking plus the time left, so they are kept as the time left and
/// written for each call; everything else in the answer comes from the records alone.
final class TrackingAnswer: Sendable {
    /// How an answer is encoded: proto3 JSON text written as its options say, or binary protobuf.
    enum Encoding: Sendable, Hashable {
        case json(EncodingOptions)
        case protobuf
    }

    /// The shipment, its tasks (in the shipment's order) and the vehicles of the open ones (in the
    /// order first met), as read: a later read that finds the same versions finds the same records.
    let reads: [ReadVersion]
    let encoding: Encoding
    /// The fields before `estimatedArrivalTime`, and those after `estimatedTaskCompletionTime`, encoded
    /// (JSON: as members, without the object's braces).
    private let head: [UInt8]
    private let tail: [UInt8]
    /// The bytes it keeps.
    var size: Int { head.count + tail.count }
    /// Seconds from the time of asking to `estimatedArrivalTime` and `estimatedTaskCompletionTime`; nil when not shown.
    private let arrivalSeconds: Double?
    private let completionSeconds: Double?

    /// The answer of `read` encoded as `encoding` says; as JSON, its route from `read.routeText` when given.
    init(_ read: Engine.TaskTrackingRead, encoding: Encoding) {
        switch encoding {
        case .json(let options):
            var writer = TrackingAnswerWriter(head: ProtoJSONTextWriter(options: options), tail: ProtoJSONTextWriter(options: options),
                                              route: read.routeText)
            read.info.writeFields(to: &writer)
            head = writer.head.bytes
            tail = writer.tail.bytes
        case .protobuf:
            // Binary protobuf is its fields one after the other in number order: the times are fields 7 and 8.
            let info = read.info
            let before = TaskTrackingInfo(name: info.name, trackingId: info.trackingId, vehicleLocation: info.vehicleLocation,
                                          routePolylinePoints: info.routePolylinePoints, remainingStopCount: info.remainingStopCount,
                                          remainingDrivingDistanceMeters: info.remainingDrivingDistanceMeters)
            let after = TaskTrackingInfo(state: info.state, taskOutcome: info.taskOutcome, taskOutcomeTime: info.taskOutcomeTime,
                                         plannedLocation: info.plannedLocation, targetTimeWindow: info.targetTimeWindow,
                                         attributes: info.attributes)
            head = before.protobufBytes()
            tail = after.protobufBytes()
        }
        reads = read.reads
        self.encoding = encoding
        arrivalSeconds = read.arrivalSeconds
        completionSeconds = read.completionSeconds
    }

    /// The answer when asked at `now`: the same bytes as the info read at `now` from the same records,
    /// encoded (`TaskTrackingInfo.jsonBytes(options:)`, `protobufBytes()`).
    func bytes(now: Timestamp) -> [UInt8] {
        let arrival = arrivalSeconds.map { now.adding(seconds: $0) }
        let completion = completionSeconds.map { now.adding(seconds: $0) }
        switch encoding {
        case .json(let options):
            var writer = ProtoJSONTextWriter(options: options)
            writer.writeObject { members in
                members.writeMembersText(head)
                members.write("estimatedArrivalTime", arrival)
                members.write("estimatedTaskCompletionTime", completion)
                members.writeMembersText(tail)
            }
            return writer.bytes
        case .protobuf:
            guard arrival != nil || completion != nil else { return head + tail }
            return head + TaskTrackingInfo(estimatedArrivalTime: arrival, estimatedTaskCompletionTime: completion).protobufBytes() + tail
        }
    }
}

/// The last answer of each tracking ID, per encoding, in this process (``TrackingAnswer``). Bounded by
/// the bytes it keeps (an answer with a route on roads through 20 stops is tens of kilobytes): when
/// full it is emptied, as ``RecordCache`` is, and the answers are made again as they are asked for.
final class TrackingAnswerCache: Sendable {
    struct Key: Hashable, Sendable {
        let shipment: RecordKey
        let encoding: TrackingAnswer.Encoding
    }

    private struct Kept {
        var answers: [Key: TrackingAnswer] = [:]
        var bytes = 0
    }

    private let kept = Mutex(Kept())
    private let capacityBytes: Int

    init(capacityBytes: Int = 64 << 20) {
        self.capacityBytes = capacityBytes
    }

    func answer(for key: Key) -> TrackingAnswer? {
        kept.withLock { $0.answers[key] }
    }

    func remember(_ answer: TrackingAnswer, for key: Key) {
        kept.withLock { kept in
            if kept.bytes + answer.size > capacityBytes { kept = Kept() }
            kept.bytes += answer.size - (kept.answers.updateValue(answer, forKey: key)?.size ?? 0)
        }
    }

    /// Whether answers are made from records of `kind`: the shipments, their tasks and the tasks' vehicles.
    static func isMadeFrom(_ kind: RecordKind) -> Bool {
        kind == .shipment || kind == .task || kind == .deliveryVehicle
    }

    /// Forgets every answer: after a delete of a record answers are made from (``isMadeFrom(_:)``), since
    /// a record created again under the same key may start again from a version an answer was made at
    /// (a store of one process numbers it afresh).
    func forgetAll() {
        kept.withLock { $0 = Kept() }
    }
}

/// Writes a tracking info's members as `ProtoJSONTextWriter` does, into `head` up to its two times and
/// into `tail` after them, leaving the times out; its `routePolylinePoints` as `route` (text written
/// already, ``Engine/routeJSON(_:through:)``) when given, in the field's own place among the members.
struct TrackingAnswerWriter: ProtoFieldWriter {
    var head: ProtoJSONTextWriter
    var tail: ProtoJSONTextWriter
    let route: [UInt8]?
    /// Whether the times have been passed: later members go to `tail`.
    private var pastTimes = false

    init(head: ProtoJSONTextWriter, tail: ProtoJSONTextWriter, route: [UInt8]?) {
        self.head = head
        self.tail = tail
        self.route = route
    }

    mutating func write<Value: ProtoJSONValue>(_ jsonName: String, _ value: Value?) {
        if jsonName == "estimatedArrivalTime" || jsonName == "estimatedTaskCompletionTime" {
            pastTimes = true
        } else if pastTimes {
            tail.write(jsonName, value)
        } else {
            head.write(jsonName, value)
        }
    }

    mutating func write<Value: ProtoJSONValue>(_ jsonName: String, _ values: [Value]) {
        if jsonName == "routePolylinePoints", let route {
            pastTimes ? tail.writeJSONText(jsonName, route) : head.writeJSONText(jsonName, route)
        } else {
            pastTimes ? tail.write(jsonName, values) : head.write(jsonName, values)
        }
    }
}
