/// A JSON value to print, with object members in the order given, so output is stable.
///
/// Only for printing the catalogue and explanations; parsing is elsewhere.
enum JSONText {
    case object([(String, JSONText)])
    case array([JSONText])
    case string(String)
    case integer(Int)
    case bool(Bool)
    case null

    /// A string, or null when nil.
    static func string(_ value: String?) -> JSONText {
        value.map(JSONText.string) ?? .null
    }

    /// The value printed with two-space indentation, as `python3 -m json.tool` does.
    func rendered() -> String {
        var output = ""
        write(to: &output, indent: 0)
        return output
    }

    private func write(to output: inout String, indent: Int) {
        switch self {
        case .object(let members):
            guard !members.isEmpty else { output += "{}"; return }
            output += "{\n"
            for (index, member) in members.enumerated() {
                output += String(repeating: "  ", count: indent + 1)
                JSONText.writeString(member.0, to: &output)
                output += ": "
                member.1.write(to: &output, indent: indent + 1)
                output += index == members.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: "  ", count: indent) + "}"
        case .array(let elements):
            guard !elements.isEmpty else { output += "[]"; return }
            output += "[\n"
            for (index, element) in elements.enumerated() {
                output += String(repeating: "  ", count: indent + 1)
                element.write(to: &output, indent: indent + 1)
                output += index == elements.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: "  ", count: indent) + "]"
        case .string(let value):
            JSONText.writeString(value, to: &output)
        case .integer(let value):
            output += String(value)
        case .bool(let value):
            output += value ? "true" : "false"
        case .null:
            output += "null"
        }
    }

    /// Writes a JSON string literal: quotes, backslashes and control characters escaped.
    static func writeString(_ value: String, to output: inout String) {
        output += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\u{2028}" || scalar == "\u{2029}" {
                    let hex = String(scalar.value, radix: 16, uppercase: false)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
