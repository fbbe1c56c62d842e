import FleetErrors

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
    /// A delivery vehicle name not of the form providers/{provider}/deliveryVehicles/{delivery_vehicle}.
    public static let badDeliveryVehicleName = ErrorCause(
        id: "BAD_DELIVERY_VEHICLE_NAME", code: .invalidArgument,
        summary: "The delivery vehicle name is not of the form providers/{provider_id}/deliveryVehicles/{delivery_vehicle_id}",
        remedy: "Use the full resource name; the provider must be the provider's Cloud project ID.",
        matchPhrases: ["delivery vehicle name", "/deliveryVehicles/"])
    /// A task name not of the form providers/{provider}/tasks/{task}.
    public static let badTaskName = ErrorCause(
        id: "BAD_TASK_NAME", code: .invalidArgument,
        summary: "The task name is not of the form providers/{provider_id}/tasks/{task_id}",
        remedy: "Use the full resource name; the provider must be the provider's Cloud project ID.",
        matchPhrases: ["task name", "/tasks/"])
    /// A task tracking info name not of the form providers/{provider}/taskTrackingInfo/{tracking_id}.
    public static let badTaskTrackingInfoName = ErrorCause(
        id: "BAD_TASK_TRACKING_INFO_NAME", code: .invalidArgument,
        summary: "The task tracking info name is not of the form providers/{provider_id}/taskTrackingInfo/{tracking_id}",
        remedy: "Use the full resource name with the shipment's tracking ID, e.g. providers/my-project/taskTrackingInfo/PARCEL-123.",
        matchPhrases: ["task tracking info name", "/taskTrackingInfo/", "tracking id"])
    /// A binary protobuf message (a gRPC request) that cannot be decoded.
    public static let malformedProtobuf = ErrorCause(
        id: "MALFORMED_PROTOBUF", code: .invalidArgument,
        summary: "The binary protobuf message cannot be decoded",
        remedy: "Send the message as the Fleet Engine v1 protos define it (Google's client libraries do); the message names the field at fault and what was wrong with its bytes.",
        matchPhrases: ["protobuf payload", "wire type", "varint", "truncated message", "invalid utf-8"])
}

/// The error causes FleetModel reports, in catalogue order: composed into the product's one catalogue
/// where the executables are wired (`ErrorCatalogue.register`), so `error-explain` knows them.
public enum FleetModelCauses {
    /// Every cause this module reports.
    public static let all: [ErrorCause] = [
        .badProviderName, .badBillableTripName, .badDeliveryVehicleName, .badTaskName, .badTaskTrackingInfoName,
        .malformedProtobuf,
    ]
}
