import FleetErrors

extension ErrorCause {
    /// A trip assigned to a vehicle that cannot take it (trip type, seats, other trips).
    public static let vehicleCannotTakeTrip = ErrorCause(
        id: "VEHICLE_CANNOT_TAKE_TRIP", code: .failedPrecondition,
        summary: "The vehicle cannot take this trip",
        remedy: "Pick a vehicle that supports the trip type and has the seats (SearchVehicles finds one), or enable backToBackEnabled on the vehicle for back-to-back trips.")

    /// A stored tile of learned travel times that cannot be read.
    public static let corruptLearnedTimes = ErrorCause(
        id: "CORRUPT_LEARNED_TIMES", code: .dataLoss,
        summary: "The learned travel times in the store cannot be read",
        remedy: "Run `fleet-admin speeds clear` and learn again (`fleet-admin speeds learn`); ETAs use live speeds meanwhile. Check the store's disk if it happens again.")
}

/// The error causes FleetEngine reports, in catalogue order: composed into the product's one catalogue
/// where the executables are wired (`ErrorCatalogue.register`), so `error-explain` knows them.
public enum FleetEngineCauses {
    /// Every cause this module reports.
    public static let all: [ErrorCause] = [
        .vehicleCannotTakeTrip,
        .corruptLearnedTimes,
    ]
}
