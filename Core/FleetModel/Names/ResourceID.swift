import FleetErrors
import Foundation

/// Fleet Engine's rules for the IDs inside resource names (provider, vehicle, trip, billable trip).
///
/// An ID is 1 to 64 characters (counted as Unicode scalars) of valid Unicode, in Normalization Form C,
/// and contains none of `/ : ? , #`. Provider IDs are Cloud project IDs; we check them by the same rules.
public enum ResourceID {
    /// The longest ID, in Unicode scalars.
    public static let maxLength = 64

    /// Characters an ID may not contain.
    public static let forbiddenCharacters: [Unicode.Scalar] = ["/", ":", "?", ",", "#"]

    /// Why `id` breaks the rules (a phrase such as "is empty"), or nil when it is valid.
    public static func problem(with id: String) -> String? {
        // The usual ID: a short run of ASCII without a forbidden byte, checked in one pass.
        let utf8 = id.utf8
        if !utf8.isEmpty, utf8.count <= maxLength, utf8.allSatisfy({ $0 < 0x80 && !isForbidden($0) }) { return nil }
        if id.isEmpty { return "is empty" }
        let length = id.unicodeScalars.count
        if length > maxLength { return "is \(length) characters long; at most \(maxLength) are allowed" }
        if let bad = id.unicodeScalars.first(where: { forbiddenCharacters.contains($0) }) {
            return "contains '\(bad)'; none of / : ? , # are allowed"
        }
        // ASCII (the usual ID) is its own NFC: normalizing, which is costly, is only for the rest.
        if !id.utf8.allSatisfy({ $0 < 0x80 }),
           !id.unicodeScalars.elementsEqual(id.precomposedStringWithCanonicalMapping.unicodeScalars) {
            return "is not in Unicode Normalization Form C (NFC)"
        }
        return nil
    }

    /// Whether an ASCII byte is one of `forbiddenCharacters`.
    private static func isForbidden(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "?"), UInt8(ascii: ","), UInt8(ascii: "#"): true
        default: false
        }
    }

    /// Whether `id` follows the rules.
    public static func isValid(_ id: String) -> Bool { problem(with: id) == nil }

    /// Checks an ID given on its own (e.g. the `vehicleId` query parameter of CreateVehicle).
    ///
    /// - Throws: INVALID_ARGUMENT, cause `.badID`, naming `field` and quoting the ID.
    public static func validate(_ id: String, field: String) throws {
        if let problem = problem(with: id) {
            throw FleetError(.badID, detail: "\(field) \(quote(id)) \(problem)", field: field)
        }
    }

    /// `"text"` with JSON escaping, for messages.
    static func quote(_ text: String) -> String { JSON.string(text).serialized() }
}
