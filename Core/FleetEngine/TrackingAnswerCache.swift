import FleetModel
import FleetStore
import Synchronization

/// A record an answer was made from, and the version it was read at (nil: there was no such record).
struct ReadVersion: Sendable, Hashable {
    let key: RecordKey
    let version: UInt64?
}

/// GetTaskTrackingInfo's JSON answer, kept with the records it was made from: while every one of them
/// is still at the version read, the answer is these bytes again. Its two times, the arrival and the
/// completion, are the time of asking plus the time left, so they are kept as the time left and
/// written for each call; everything else in the answer comes from the records alone.
final class TrackingAnswer: Sendable {
    /// The shipment, its tasks (in the shipment's order) and the vehicles of the open ones (in the
    /// order first met), as read: a later read that finds the same versions finds the same records.
    let reads: [ReadVersion]
    let options: EncodingOptions
    /// The members before `estimatedArrivalTime`, and those after `estimatedTaskCompletionTime`, as text.
    private let head: [UInt8]
    private let tail: [UInt8]
    /// Seconds from the time of asking to `estimatedArrivalTime` and `estimatedTaskCompletionTime`; nil when not shown.
    private let arrivalSeconds: Double?
    private let completionSeconds: Double?

    /// The answer of `read` written as `options` say, its route from `read.routeText` when given.
    init(_ read: Engine.TaskTrackingRead, options: EncodingOptions) {
        var writer = TrackingAnswerWriter(head: ProtoJSONTextWriter(options: options), tail: ProtoJSONTextWriter(options: options),
                                          route: read.routeText)
        read.info.writeFields(to: &writer)
        reads = read.reads
        self.options = options
        head = writer.head.bytes
        tail = writer.tail.bytes
        arrivalSeconds = read.arrivalSeconds
        completionSeconds = read.completionSeconds
    }

    /// The answer when asked at `now`: the same bytes as the info read at `now` from the same records
    /// (`TaskTrackingInfo.jsonBytes(options:)`).
    func json(now: Timestamp) -> [UInt8] {
        var writer = ProtoJSONTextWriter(options: options)
        writer.writeObject { members in
            members.writeMembersText(head)
            members.write("estimatedArrivalTime", arrivalSeconds.map { now.adding(seconds: $0) })
            members.write("estimatedTaskCompletionTime", completionSeconds.map { now.adding(seconds: $0) })
            members.writeMembersText(tail)
        }
        return writer.bytes
    }
}

/// The last JSON answer of each tracking ID, per encoding, in this process (``TrackingAnswer``). Bounded:
/// when full it is emptied, as ``RecordCache`` does.
final class TrackingAnswerCache: Sendable {
    struct Key: Hashable, Sendable {
        let shipment: RecordKey
        let options: EncodingOptions
    }

    private let answers = Mutex<[Key: TrackingAnswer]>([:])
    private let capacity: Int

    init(capacity: Int = 50_000) {
        self.capacity = capacity
    }

    func answer(for key: Key) -> TrackingAnswer? {
        answers.withLock { $0[key] }
    }

    func remember(_ answer: TrackingAnswer, for key: Key) {
        answers.withLock { answers in
            if answers.count >= capacity { answers.removeAll(keepingCapacity: true) }
            answers[key] = answer
        }
    }

    /// Forgets every answer: after a delete, since a record created again under the same key may
    /// start again from a version an answer was made at (a store of one process numbers it afresh).
    func forgetAll() {
        answers.withLock { $0.removeAll() }
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
