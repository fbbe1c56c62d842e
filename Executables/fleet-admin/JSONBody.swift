import FleetCLI
import FleetErrors
import FleetModel

/// A resource given as JSON (`--json-body FILE`, or `-` for standard input), with the top-level
/// fields it sets (an update's mask when `--mask` is not given).
struct JSONBody<Message: ProtoMessage>: Sendable {
    /// The decoded resource.
    let message: Message
    /// The JSON names of the fields the body sets, in order, as camelCase paths.
    let fields: [String]

    /// The body `option` (the command's `--json-body`) names, or nil when the option is absent. Bad JSON or a field that is
    /// not one of `Message`'s is INVALID_ARGUMENT naming `path` (`vehicle.maximumCapacity`).
    static func read(_ session: AdminSession, from option: OptionDefinition, path: String) throws -> JSONBody? {
        guard let file = session.arguments.string(option) else { return nil }
        let text = try InputFiles.text(file, standardInput: session.context.standardInput)
        let json = try JSON.parse(text)
        guard let object = json.objectValue else {
            throw FleetError.invalidArgument("--json-body \(file) holds \(json.kindDescription); expected a \(Message.protoMessageName) JSON object", field: path)
        }
        let message = try Message(json: json, path: path, options: DecodingOptions())
        return JSONBody(message: message, fields: object.keys.map(FieldMask.camelCase))
    }
}

/// `--mask a,b` of an update, camelCased (`vehicle_state` → `vehicleState`).
enum MaskFlag {
    /// `--mask a,b`.
    static let option = OptionDefinition.value("mask", valueName: "fields",
                                     help: "The fields to update from --json-body (comma-separated JSON or proto names); default: the fields the body sets.")

    /// The paths `--mask` names, or nil when it is not given; a malformed mask is a usage error.
    static func paths(_ arguments: ParsedArguments) throws(UsageError) -> [String]? {
        guard let text = arguments.string(option) else { return nil }
        guard let mask = try? FieldMask(parsing: text), !mask.isEmpty else {
            throw arguments.usageError("--mask: '\(text)' is not a comma-separated list of field names (like vehicleState,maximumCapacity)")
        }
        return mask.paths.map(FieldMask.camelCase)
    }

    /// `paths` without repeats, in order.
    static func unique(_ paths: [String]) -> [String] {
        var seen = Set<String>()
        return paths.filter { seen.insert($0).inserted }
    }
}
