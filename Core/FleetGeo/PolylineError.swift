/// Why an encoded polyline could not be decoded, and where. The engine turns it into an INVALID_ARGUMENT
/// `FleetError` naming the field that held the string.
public struct PolylineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of malformed input ``Polyline/decode(_:precision:)`` rejects.
    public enum Reason: String, Sendable, Hashable {
        /// A character outside `?` (63) ... `~` (126), which no encoder produces.
        case invalidCharacter
        /// The string ends inside a value (its last character still had the continuation bit 0x20).
        case truncatedValue
        /// The string ends after a latitude, without the longitude that pairs with it.
        case missingLongitude
        /// A value spans more than 12 characters, too many for any coordinate.
        case valueTooLong
        /// The point starting here lies beyond latitude ±90° or longitude ±180°.
        case coordinateOutOfRange
    }

    /// What is wrong.
    public var reason: Reason
    /// Offset (in UTF-8 bytes, which are characters for any valid polyline) of the offending character, or of
    /// the first character of the offending value.
    public var position: Int

    /// Creates an error.
    public init(reason: Reason, position: Int) {
        self.reason = reason
        self.position = position
    }

    /// A sentence for the error message, e.g. "invalid character at offset 4".
    public var description: String {
        switch reason {
        case .invalidCharacter: "invalid character at offset \(position) (polylines use '?' to '~')"
        case .truncatedValue: "value starting at offset \(position) is cut off by the end of the string"
        case .missingLongitude: "latitude at offset \(position) has no longitude after it"
        case .valueTooLong: "value starting at offset \(position) is longer than 12 characters"
        case .coordinateOutOfRange: "point starting at offset \(position) lies beyond latitude ±90° or longitude ±180°"
        }
    }
}
