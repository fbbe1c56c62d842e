// The Fleet Engine causes the product reports. Each is used at least once by the code or
// matched by `error-explain`; add one here before reporting a new kind of failure.

extension ErrorCause {
    // MARK: INVALID_ARGUMENT

    /// A request field has a bad value; the message names the field.
    public static let invalidField = ErrorCause(
        id: "INVALID_FIELD", code: .invalidArgument,
        summary: "A request field is invalid",
        remedy: "Fix the field named in the message and send the request again.")
    /// A trip name not of the form providers/{provider}/trips/{trip}.
    public static let badTripName = ErrorCause(
        id: "BAD_TRIP_NAME", code: .invalidArgument,
        summary: "The trip name is not of the form providers/{provider_id}/trips/{trip_id}",
        remedy: "Use the full resource name; the provider must be the provider's Cloud project ID.")
    /// A vehicle name not of the form providers/{provider}/vehicles/{vehicle}.
    public static let badVehicleName = ErrorCause(
        id: "BAD_VEHICLE_NAME", code: .invalidArgument,
        summary: "The vehicle name is not of the form providers/{provider_id}/vehicles/{vehicle_id}",
        remedy: "Use the full resource name; the provider must be the provider's Cloud project ID.")
    /// An ID that breaks Fleet Engine's rules.
    public static let badID = ErrorCause(
        id: "BAD_ID", code: .invalidArgument,
        summary: "The ID is invalid",
        remedy: "IDs are 1 to 64 characters of valid Unicode in NFC form, without '/', ':', '?', ',' or '#'.")
    /// An update with no field paths.
    public static let emptyUpdateMask = ErrorCause(
        id: "EMPTY_UPDATE_MASK", code: .invalidArgument,
        summary: "update_mask cannot be empty",
        remedy: "Name the fields to change in updateMask. The Driver SDK's first update after start can hit this; it is harmless and counted separately.")
    /// A request body that is not valid JSON.
    public static let malformedJSON = ErrorCause(
        id: "MALFORMED_JSON", code: .invalidArgument,
        summary: "The request body is not valid JSON",
        remedy: "Send a JSON object in Fleet Engine's REST format; the message gives the position of the fault.")

    // MARK: NOT_FOUND, ALREADY_EXISTS

    /// A trip or vehicle that was never created (or was deleted).
    public static let resourceNotFound = ErrorCause(
        id: "RESOURCE_NOT_FOUND", code: .notFound,
        summary: "Not found",
        remedy: "Check the name; the trip or vehicle may never have been created, or was deleted.")
    /// A create for an ID that exists.
    public static let alreadyExists = ErrorCause(
        id: "ALREADY_EXISTS", code: .alreadyExists,
        summary: "Already exists",
        remedy: "Use another ID, or get and update the existing resource.")

    // MARK: FAILED_PRECONDITION

    /// A trip status change the state machine forbids.
    public static let illegalTransition = ErrorCause(
        id: "ILLEGAL_TRIP_STATUS_TRANSITION", code: .failedPrecondition,
        summary: "The trip cannot move to that status",
        remedy: "Advance the trip one step at a time: NEW, ENROUTE_TO_PICKUP, ARRIVED_AT_PICKUP, [intermediate stops], ENROUTE_TO_DROPOFF, COMPLETE; CANCELED from any non-terminal status.")

    // MARK: ABORTED

    /// Concurrent writers kept colliding on one resource.
    public static let concurrentModification = ErrorCause(
        id: "CONCURRENT_MODIFICATION", code: .aborted,
        summary: "The resource was changed concurrently",
        remedy: "Retry the call; it was not applied.")

    // MARK: INTERNAL, UNAVAILABLE

    /// The store could not read or write.
    public static let storeFailure = ErrorCause(
        id: "STORE_FAILURE", code: .internal,
        summary: "The store failed",
        remedy: "Check the store's path, permissions and free disk space; the message says what failed.")
    /// The store is busy (locked by another process) past the busy timeout.
    public static let storeBusy = ErrorCause(
        id: "STORE_BUSY", code: .unavailable,
        summary: "The store is busy",
        remedy: "Retry with backoff; another process holds the store.")
}
