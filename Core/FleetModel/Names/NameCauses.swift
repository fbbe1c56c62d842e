import FleetErrors

// Causes for resource names that Causes.swift does not have yet (to be moved into the catalogue).
extension ErrorCause {
    /// A provider name not of the form providers/{provider}.
    public static let badProviderName = ErrorCause(
        id: "BAD_PROVIDER_NAME", code: .invalidArgument,
        summary: "The provider name is not of the form providers/{provider_id}",
        remedy: "Use providers/ followed by the provider's Cloud project ID, e.g. providers/my-project.",
        matchPhrases: ["provider name", "providers/{provider_id}"])
    /// A billable trip name not of the form providers/{provider}/billableTrips/{billable_trip}.
    public static let badBillableTripName = ErrorCause(
        id: "BAD_BILLABLE_TRIP_NAME", code: .invalidArgument,
        summary: "The billable trip name is not of the form providers/{provider_id}/billableTrips/{billable_trip_id}",
        remedy: "Use the full resource name; the provider must be the provider's Cloud project ID.",
        matchPhrases: ["billable trip name", "/billableTrips/"])
}
