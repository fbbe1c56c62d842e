import FleetErrors

/// A proto3 enum, modelled as an open set of named values.
///
/// Each enum is a struct holding the value's proto `name`, with a static constant per known value
/// (`TripStatus.new`, `TripStatus.enrouteToPickup`). Values compare by name, so they work in `switch`
/// (`case .new:`) and as dictionary keys; a `default:` case handles values this build does not know.
///
/// Unknown values are kept, never dropped, so a newer client's data survives a trip through older code:
/// - an unknown **name** (`"FUTURE_STATUS"`) is kept as is and encoded back as that string
///   (Google's strict parser would reject it; we accept any identifier-like name for forward compatibility);
/// - an unknown **number** (`42`) is kept as the name `"42"` (`number == 42`) and encoded back as the JSON number 42.
public protocol ProtoEnum: ProtoJSONValue, CustomStringConvertible {
    /// The value's name in the proto (upper snake case, `ENROUTE_TO_PICKUP`), as JSON carries it; for an
    /// unknown number, its decimal form.
    var name: String { get }

    /// A value from its name, known or not. Prefer the static constants for known values.
    init(name: String)

    /// Every value this build knows, in declaration order; the first is the enum's default (number 0).
    static var allKnown: [Self] { get }

    /// The number of each known name.
    static var numbersByName: [String: Int32] { get }

    /// The enum's full proto name (`maps.fleetengine.v1.TripStatus`).
    static var protoEnumName: String { get }
}

extension ProtoEnum {
    /// The value's proto number: known names map to theirs, unknown numbers keep theirs; nil for an unknown name.
    public var number: Int32? {
        Self.numbersByName[name] ?? Int32(name)
    }

    /// Whether this build knows the value.
    public var isKnown: Bool { Self.numbersByName[name] != nil }

    /// The value with number `number`: the known one, or an unknown value remembering the number.
    public init(number: Int32) {
        if let known = Self.allKnown.first(where: { Self.numbersByName[$0.name] == number }) {
            self = known
        } else {
            self.init(name: String(number))
        }
    }

    /// The default value (number 0).
    public static var defaultValue: Self { allKnown[0] }

    /// The name.
    public var description: String { name }

    /// Decodes a name (known or any identifier-like unknown name), a number, or a numeric string.
    public init(protoJSON json: JSON, path: String, options: DecodingOptions) throws {
        switch json {
        case .string(let text):
            if Self.numbersByName[text] != nil {
                self.init(name: text)
            } else if let number = Int32(text) {
                self.init(number: number)
            } else if Self.isIdentifier(text) {
                self.init(name: text)
            } else {
                throw Self.invalid(json, path: path)
            }
        case .number(let number):
            guard number.rounded(.towardZero) == number, let value = Int32(exactly: number) else {
                throw Self.invalid(json, path: path)
            }
            self.init(number: value)
        default:
            throw Self.invalid(json, path: path)
        }
    }

    /// The name as a string; an unknown number as a JSON number.
    public var protoJSON: JSON {
        if !isKnown, let number = Int32(name) { return .number(Double(number)) }
        return .string(name)
    }

    /// As `protoJSON`, or the number when the writer's options ask for numbers (and the value has one).
    public func writeJSONText(to writer: inout ProtoJSONTextWriter) {
        if writer.options.enumsAsNumbers, let number {
            writer.writeValue(.number(Double(number)))
        } else {
            writer.writeValue(protoJSON)
        }
    }

    private static func invalid(_ json: JSON, path: String) -> FleetError {
        ProtoJSONError.invalidValue(
            at: path, protoType: "TYPE_ENUM \(protoEnumName)", got: json,
            expected: "one of \(allKnown.map(\.name).joined(separator: ", ")), or an enum number")
    }

    /// `[A-Za-z_][A-Za-z0-9_]*`: the shape of a proto enum value name.
    private static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.utf8.first, first == UInt8(ascii: "_") || (first | 0x20 >= UInt8(ascii: "a") && first | 0x20 <= UInt8(ascii: "z")) else {
            return false
        }
        return text.utf8.allSatisfy { byte in
            byte == UInt8(ascii: "_") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
        }
    }
}
