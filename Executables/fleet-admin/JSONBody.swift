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

    /// The body the command's `--json-body` names, or nil when the option is absent. Bad JSON or a field that is
    /// not one of `Message`'s is INVALID_ARGUMENT naming `path` (`vehicle.maximumCapacity`).
    static func read(_ session: AdminSession, path: String) throws -> JSONBody? {
        guard let file = try JSONBodyFlag<Message>(session.arguments).file else { return nil }
        let text = try InputFiles.text(file, standardInput: session.context.standardInput)
        let json = try JSON.parse(text)
        guard let object = json.objectValue else {
            throw FleetError.invalidArgument("--json-body \(file) holds \(json.kindDescription); expected a \(Message.protoMessageName) JSON object", field: path)
        }
        let message = try Message(json: json, path: path, options: DecodingOptions())
        return JSONBody(message: message, fields: object.keys.map(FieldMask.camelCase))
    }
}

/// `--json-body FILE|-` of `create` and `update`: a `Message` (named in the help by its proto name) as JSON.
struct JSONBodyFlag<Message: ProtoMessage>: OptionGroup {
    @Option("json-body", valueName: "file",
            help: "A \(Message.protoMessageName.split(separator: ".").last ?? "") as JSON, from a file or - (standard input); flags override its fields.",
            completion: .files)
    var file: String?

    init() {}
}

/// `--mask a,b` of an update, camelCased (`vehicle_state` → `vehicleState`).
struct MaskFlag: OptionGroup {
    @Option("mask", valueName: "fields",
            help: "The fields to update from --json-body (comma-separated JSON or proto names); default: the fields the body sets.",
            transform: MaskFlag.paths)
    var paths: [String]?

    init() {}

    /// The camelCased paths a mask names; a malformed mask is a problem.
    @Sendable static func paths(_ text: String) throws(ArgumentProblem) -> [String] {
        guard let mask = try? FieldMask(parsing: text), !mask.isEmpty else {
            throw ArgumentProblem("is not a comma-separated list of field names (like vehicleState,maximumCapacity)")
        }
        return mask.paths.map(FieldMask.camelCase)
    }

    /// `paths` without repeats, in order.
    static func unique(_ paths: [String]) -> [String] {
        var seen = Set<String>()
        return paths.filter { seen.insert($0).inserted }
    }
}
