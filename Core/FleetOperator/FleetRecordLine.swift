import FleetErrors
import FleetModel

/// One line of an export file: `{"kind":"vehicle","resource":{…Vehicle…}}` or
/// `{"kind":"trip","resource":{…Trip…}}`, the resource in Fleet Engine's JSON.
public enum FleetRecordLine: Sendable, Equatable {
    /// A vehicle.
    case vehicle(Vehicle)
    /// A trip.
    case trip(Trip)

    /// The line, compact JSON without the new line.
    public var text: String {
        var object = JSONObject()
        switch self {
        case .vehicle(let vehicle):
            object["kind"] = "vehicle"
            object["resource"] = vehicle.toJSON()
        case .trip(let trip):
            object["kind"] = "trip"
            object["resource"] = trip.toJSON()
        }
        return JSON.object(object).serialized()
    }

    /// Reads a line; `lineNumber` and `source` name it in errors (`BAD_EXPORT_LINE`, or the
    /// resource's INVALID_ARGUMENT naming the field).
    public init(line: String, lineNumber: Int, source: String) throws {
        let place = "\(source) line \(lineNumber)"
        let json: JSON
        do {
            json = try JSON.parse(line)
        } catch let error as FleetError {
            throw FleetError(.badExportLine, detail: "\(place): \(error.message)")
        }
        guard let object = json.objectValue, let kind = object["kind"]?.stringValue, let resource = object["resource"] else {
            throw FleetError(.badExportLine, detail: "\(place): expected {\"kind\":\"vehicle\"|\"trip\",\"resource\":{…}}")
        }
        do {
            switch kind {
            case "vehicle": self = .vehicle(try Vehicle(json: resource, path: "resource", options: DecodingOptions()))
            case "trip": self = .trip(try Trip(json: resource, path: "resource", options: DecodingOptions()))
            default: throw FleetError(.badExportLine, detail: "\(place): kind \"\(kind)\" is neither vehicle nor trip")
            }
        } catch var error as FleetError where error.cause != ErrorCause.badExportLine.id {
            error.message = "\(place): \(error.message)"
            throw error
        }
    }
}
