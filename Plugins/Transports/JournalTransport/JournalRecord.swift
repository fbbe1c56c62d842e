import FleetErrors
import FleetInterface
import FleetModel

/// One line of a journal: the `sequence`-th mutating call, made at time `at`.
///
/// On disk it is one compact JSON object and a newline (see docs/journal-format.md):
/// `{"v":1,"seq":7,"at":"2026-01-01T00:00:00Z","method":"UpdateVehicle","request":{…}}`.
public struct JournalRecord: Sendable, Hashable {
    /// The format version this build writes, and the newest it reads.
    public static let formatVersion = 1

    /// The method names a journal may hold (the journaled methods of the table), in table order.
    public static let methods: [String] = FleetMethod.allCases.filter(\.isJournaled).map(\.rawValue)

    /// The record's position in the journal: 1 for the first line, then one more per line.
    public var sequence: Int
    /// The time of the call: every process applies the record with its engine's clock reading this.
    public var at: Timestamp
    /// The call and its request: one of the methods the table marks as journaled (`FleetMethod.isJournaled`).
    public var call: FleetCall

    /// A record.
    public init(sequence: Int, at: Timestamp, call: FleetCall) {
        self.sequence = sequence
        self.at = at
        self.call = call
    }

    /// The record as a JSON object, members in the documented order.
    public var json: JSON {
        [
            "v": .number(Double(Self.formatVersion)),
            "seq": .number(Double(sequence)),
            "at": .string(at.rfc3339String),
            "method": .string(call.method.rawValue),
            "request": call.requestJSON,
        ]
    }

    /// The bytes of the record's line: compact JSON (which never holds a raw newline) and `\n`.
    public var line: [UInt8] {
        var bytes = json.serializedBytes()
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// Decodes a complete line (without its newline) of `source`, the `lineNumber`-th.
    ///
    /// - Throws: DATA_LOSS (`transportJournalCorrupt`) naming the line when it is not a record of this
    ///   format, or names a method this build does not know; FAILED_PRECONDITION
    ///   (`journalFormatTooNew`) when it was written in a newer format.
    public init(line: some Collection<UInt8>, lineNumber: Int, source: String) throws {
        let place = "\(source) line \(lineNumber)"
        func corrupt(_ what: String) -> FleetError {
            FleetError(.transportJournalCorrupt, detail: "\(place): \(what)")
        }
        let value: JSON
        do {
            value = try JSON.parse(line)
        } catch let error as FleetError {
            throw corrupt("not JSON (\(error.message))")
        }
        guard let object = value.objectValue else { throw corrupt("expected a JSON object, found \(value.kindDescription)") }
        guard let version = object["v"]?.intValue else { throw corrupt("no format version \"v\"") }
        guard version <= Self.formatVersion else {
            throw FleetError(.journalFormatTooNew,
                             detail: "\(place) is in format version \(version); this build reads versions up to \(Self.formatVersion)")
        }
        guard version >= 1 else { throw corrupt("format version \(version) does not exist") }
        let known: Set<String> = ["v", "seq", "at", "method", "request"]
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            throw corrupt("unknown member \"\(unknown)\"")
        }
        guard let sequence = object["seq"]?.intValue, sequence >= 1 else { throw corrupt("\"seq\" must be a whole number from 1") }
        guard let timeText = object["at"]?.stringValue, let at = try? Timestamp(rfc3339: timeText) else {
            throw corrupt("\"at\" must be an RFC 3339 time")
        }
        guard let method = object["method"]?.stringValue else { throw corrupt("\"method\" must be a string") }
        guard let request = object["request"], request.objectValue != nil else { throw corrupt("\"request\" must be a JSON object") }
        guard let known = FleetMethod(rawValue: method), known.isJournaled else {
            throw corrupt("unknown method \"\(method)\"; this build knows \(Self.methods.joined(separator: ", "))")
        }
        let call: FleetCall
        do {
            call = try FleetCall(method: known, json: request, path: "request")
        } catch let error as FleetError {
            throw corrupt("the \(method) request is invalid: \(error.message)")
        }
        self.init(sequence: sequence, at: at, call: call)
    }
}
