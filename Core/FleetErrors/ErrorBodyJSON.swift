import Foundation

/// A parsed JSON value, just enough to read a Google error body.
enum ErrorBodyValue: Equatable {
    case object([String: ErrorBodyValue])
    case array([ErrorBodyValue])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    /// A member of an object, or nil.
    subscript(key: String) -> ErrorBodyValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The string, or nil.
    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number as an integer when it is one, or nil.
    var integer: Int? {
        if case .number(let value) = self, value.rounded() == value, abs(value) < 1e15 { return Int(value) }
        return nil
    }

    /// Parses JSON text, or returns nil when it is not valid JSON.
    ///
    /// The only use of Foundation in FleetErrors, kept to this function so that it can be swapped for the
    /// house's own JSON parser when that moves below FleetErrors.
    static func parse(_ text: String) -> ErrorBodyValue? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else {
            return nil
        }
        return convert(object)
    }

    private static func convert(_ object: Any) -> ErrorBodyValue {
        switch object {
        case let dictionary as [String: Any]: .object(dictionary.mapValues(convert))
        case let array as [Any]: .array(array.map(convert))
        case let string as String: .string(string)
        case let number as NSNumber:
            // JSON true/false arrive as NSNumber too, with the Objective-C type "c".
            String(cString: number.objCType) == "c" ? .bool(number.boolValue) : .number(number.doubleValue)
        default: .null
        }
    }
}
