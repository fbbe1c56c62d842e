import FleetErrors
import FleetModel

/// The check every update mask goes through. Which fields a client may name, and which the server
/// keeps, is generated per message (`Vehicle.updatableFields`, `Trip.serverOwnedFields`), so the
/// paths come out typed and the engine's switches over them are exhaustive.
enum UpdateMask {
    /// The mask's paths, checked: at least one, each a whole top-level field the client may change,
    /// without repeats, in the order given.
    ///
    /// - Throws: INVALID_ARGUMENT naming `updateMask`: `.emptyUpdateMask` for no path,
    ///   `.badUpdateMaskPath` for a field the server keeps, a nested path or a name that is no field.
    static func paths<Message: UpdatableMessage>(_ mask: FieldMask?, of _: Message.Type) throws -> [Message.FieldPath] {
        // The message's short name, for the errors only (every location report passes through here).
        var resource: String { Message.protoMessageName.split(separator: ".").last.map(String.init) ?? Message.protoMessageName }
        let paths = (mask?.paths ?? []).filter { !$0.isEmpty }
        guard !paths.isEmpty else {
            throw FleetError(.emptyUpdateMask, detail: "name at least one \(resource) field in updateMask", field: "updateMask")
        }
        var fields: [Message.FieldPath] = []
        for path in paths {
            if let field = Message.FieldPath(rawValue: path) {
                if Message.serverOwnedFields.contains(field) { throw serverOwned(path) }
                if !fields.contains(field) { fields.append(field) }
                continue
            }
            if let top = Message.FieldPath(firstSegmentOf: path), Message.updatableFields.contains(top) {
                throw FleetError(.badUpdateMaskPath, detail: "'\(path)': only whole top-level fields can be updated; use '\(top)'",
                                 field: "updateMask")
            }
            throw FleetError(.badUpdateMaskPath, detail: "'\(path)' is not a field of \(resource)", field: "updateMask")
        }
        return fields
    }

    /// The error for a path naming a field the server keeps: `paths(_:of:)` refuses those, so a switch
    /// over checked paths that meets one throws this rather than treating it as a no-op.
    static func serverOwned(_ path: some CustomStringConvertible) -> FleetError {
        FleetError(.badUpdateMaskPath, detail: "'\(path)' is maintained by the server and cannot be updated", field: "updateMask")
    }
}
