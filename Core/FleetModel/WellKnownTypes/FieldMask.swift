import FleetErrors

/// A set of field paths (`google.protobuf.FieldMask`), the `updateMask` of update calls.
///
/// Paths use JSON (lowerCamelCase) names joined by dots: `vehicleState`, `lastLocation.location`.
/// In JSON and in query strings a mask is one comma-separated string: `"vehicleState,lastLocation"`.
/// Parsing also accepts proto (snake_case) names and converts them: `vehicle_state` → `vehicleState`.
public struct FieldMask: Sendable, Hashable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// The paths, camelCase, in the order given.
    public var paths: [String]

    /// A mask of `paths` (none by default); snake_case paths are converted to camelCase.
    public init(_ paths: [String] = []) {
        self.paths = paths.map(Self.camelCase)
    }

    /// A mask of the listed paths.
    public init(arrayLiteral paths: String...) {
        self.init(paths)
    }

    /// Parses `"a,b.c"` (spaces around paths are ignored; the empty string is the empty mask).
    ///
    /// - Throws: INVALID_ARGUMENT naming `field` (when given) for an empty path (`"a,,b"`) or a segment
    ///   that is not a field name (letters, digits and `_`, not starting with a digit).
    public init(parsing text: String, field: String? = nil) throws {
        guard let parsed = Self.parse(text) else {
            let place = field.map { " for '\($0)'" } ?? ""
            throw FleetError.invalidArgument(
                "Invalid field mask \"\(text)\"\(place): expected comma-separated field paths such as \"vehicleState,lastLocation.location\"",
                field: field)
        }
        self = parsed
    }

    private static func parse(_ text: String) -> FieldMask? {
        let trimmed = text.trimmingASCIISpaces()
        if trimmed.isEmpty { return FieldMask([]) }
        var paths: [String] = []
        for piece in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            let path = String(piece).trimmingASCIISpaces()
            guard isFieldPath(path) else { return nil }
            paths.append(camelCase(path))
        }
        return FieldMask(paths)
    }

    /// Whether `path` is field names (ASCII letters, digits and `_`, not starting with a digit) joined
    /// by dots, whose JSON (camelCase) form is field names too: `a.___` or `a._1` would become `a.` or
    /// `a.1`, which no field has and which would not read back (from JSON or from the wire).
    static func isFieldPath(_ path: String) -> Bool {
        func isFieldNames(_ path: String) -> Bool {
            !path.isEmpty && path.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { isFieldName($0) }
        }
        return isFieldNames(path) && isFieldNames(camelCase(path))
    }

    private static func isFieldName(_ segment: Substring) -> Bool {
        guard let first = segment.utf8.first, !(first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) else { return false }
        return segment.utf8.allSatisfy { byte in
            byte == UInt8(ascii: "_") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
        }
    }

    /// Converts a snake_case path to lowerCamelCase per segment (`last_location.update_time` →
    /// `lastLocation.updateTime`), as protobuf maps field names to JSON names.
    public static func camelCase(_ path: String) -> String {
        guard path.utf8.contains(UInt8(ascii: "_")) else { return path }
        var result = ""
        result.reserveCapacity(path.utf8.count)
        var capitalizeNext = false
        for character in path {
            if character == "_" {
                capitalizeNext = true
            } else if capitalizeNext {
                result += character.uppercased()
                capitalizeNext = false
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// Whether the mask names no field.
    public var isEmpty: Bool { paths.isEmpty }

    /// The first segment of each path, without repeats, in order (`lastLocation` for `lastLocation.location`).
    public var topLevelFields: [String] {
        var seen = Set<String>()
        return paths.compactMap { path in
            let first = String(path.prefix { $0 != "." })
            return seen.insert(first).inserted ? first : nil
        }
    }

    /// Whether the mask names `path` itself or a field that contains it (`lastLocation` covers `lastLocation.location`).
    public func covers(_ path: String) -> Bool {
        paths.contains { $0 == path || path.hasPrefix($0 + ".") }
    }

    /// The comma-separated form: `"vehicleState,lastLocation.location"`.
    public var description: String { paths.joined(separator: ",") }
}

extension FieldMask: ProtoJSONValue {
    /// A comma-separated string of paths.
    public init(protoJSON json: JSON, path: String, options: DecodingOptions) throws {
        guard case .string(let text) = json, let parsed = Self.parse(text) else {
            throw ProtoJSONError.invalidValue(
                at: path, protoType: "google.protobuf.FieldMask", got: json,
                expected: "a string of comma-separated field paths such as \"vehicleState,lastLocation.location\"")
        }
        self = parsed
    }

    /// The comma-separated string.
    public var protoJSON: JSON { .string(description) }
}

extension String {
    /// The string without leading and trailing ASCII spaces and tabs.
    fileprivate func trimmingASCIISpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
