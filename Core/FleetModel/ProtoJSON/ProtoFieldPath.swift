/// A top-level field of a message, by its JSON name: what the first segment of an update mask's path
/// names. Each message has one, generated from the protos (`Vehicle.FieldPath`, `Trip.FieldPath`), so
/// code that acts on the paths of an update switches over cases the compiler checks: a misspelled
/// field does not compile, and a field a new proto adds shows up as a switch that is no longer
/// exhaustive.
public protocol ProtoFieldPath: RawRepresentable, CaseIterable, Hashable, Sendable, CustomStringConvertible
where RawValue == String {}

extension ProtoFieldPath {
    /// The JSON name (`vehicleState`).
    public var description: String { rawValue }

    /// The field a path starts with, in JSON or proto spelling (`last_location.location` → `lastLocation`),
    /// or nil when the message has no such field.
    public init?(firstSegmentOf path: String) {
        self.init(rawValue: String(FieldMask.camelCase(path).prefix { $0 != "." }))
    }
}

/// A message that an Update call changes field by field through an update mask (`Vehicle`, `Trip`):
/// which of its fields a client may name, and which only the server sets. The two sets are generated
/// and together hold every field, so each field has exactly one answer.
public protocol UpdatableMessage: ProtoMessage {
    /// The fields a client may name in an update mask.
    static var updatableFields: Set<FieldPath> { get }

    /// The fields the server maintains: an update mask that names one is refused.
    static var serverOwnedFields: Set<FieldPath> { get }
}

extension FieldMask {
    /// A mask of whole top-level fields, typed: `FieldMask(fields: [Vehicle.FieldPath.lastLocation])`.
    public init<Path: ProtoFieldPath>(fields: [Path]) {
        self.init(fields.map(\.rawValue))
    }
}
