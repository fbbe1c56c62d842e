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

extension ErrorCause {
    // MARK: Deliveries

    /// A delivery vehicle that was never created, or was deleted.
    public static let deliveryVehicleNotFound = ErrorCause(
        id: "DELIVERY_VEHICLE_NOT_FOUND", code: .notFound,
        summary: "The delivery vehicle was never created, or was deleted",
        remedy: "Create the delivery vehicle (CreateDeliveryVehicle) before updating it, and check the provider and delivery vehicle IDs in its name.",
        matchPhrases: ["delivery vehicle not found", "deliveryVehicles/"])

    /// A task that was never created, or was deleted.
    public static let taskNotFound = ErrorCause(
        id: "TASK_NOT_FOUND", code: .notFound,
        summary: "The task was never created, or was deleted",
        remedy: "Create the task (CreateTask or BatchCreateTasks) before assigning or updating it, and check the provider and task IDs.",
        matchPhrases: ["task not found", "/tasks/"])

    /// A tracking ID no task carries.
    public static let trackingIDNotFound = ErrorCause(
        id: "TRACKING_ID_NOT_FOUND", code: .notFound,
        summary: "No task has this tracking ID",
        remedy: "Check the tracking ID: it is the task's trackingId (not its task ID), set when the task was created; tasks deleted since no longer count.",
        matchPhrases: ["tracking id not found", "taskTrackingInfo/"])

    /// Deleting a delivery vehicle that still has OPEN tasks assigned.
    public static let deliveryVehicleHasOpenTasks = ErrorCause(
        id: "DELIVERY_VEHICLE_HAS_OPEN_TASKS", code: .failedPrecondition,
        summary: "The delivery vehicle has OPEN tasks assigned to it",
        remedy: "Remove its remaining stops first (UpdateDeliveryVehicle with the stops left out closes their tasks), then delete it.",
        matchPhrases: ["open tasks", "has tasks assigned"])

    /// Deleting a task that is OPEN and assigned to a delivery vehicle.
    public static let taskOpenAndAssigned = ErrorCause(
        id: "TASK_OPEN_AND_ASSIGNED", code: .failedPrecondition,
        summary: "The task is OPEN and assigned to a delivery vehicle",
        remedy: "Remove the task from the vehicle's remainingVehicleJourneySegments (UpdateDeliveryVehicle), which closes it, then delete it.",
        matchPhrases: ["open and assigned"])

    /// Closing an assigned task with UpdateTask, which Fleet Engine leaves to the vehicle's stops.
    public static let assignedTaskClosedByItsStop = ErrorCause(
        id: "ASSIGNED_TASK_CLOSED_BY_ITS_STOP", code: .failedPrecondition,
        summary: "A task assigned to a delivery vehicle is closed by removing it from the vehicle's stops, not with UpdateTask",
        remedy: "Send the vehicle's remainingVehicleJourneySegments without the task's stop (or without the task), which closes it; then set its outcome with UpdateTask.",
        matchPhrases: ["remove its stop", "assigned task"])

    /// Assigning or reopening a CLOSED task.
    public static let taskClosed = ErrorCause(
        id: "TASK_CLOSED", code: .failedPrecondition,
        summary: "The task is CLOSED: it cannot be reopened or assigned again",
        remedy: "Create a new task for the work still to do (a new task ID; the tracking ID may be the same).",
        matchPhrases: ["task is closed", "cannot be reopened"])

    /// Assigning a task that another delivery vehicle has.
    public static let taskOnAnotherVehicle = ErrorCause(
        id: "TASK_ON_ANOTHER_VEHICLE", code: .failedPrecondition,
        summary: "The task is assigned to another delivery vehicle",
        remedy: "To move a shipment to another vehicle, close the task (remove it from its vehicle's stops) and create a new one for the other vehicle.",
        matchPhrases: ["another delivery vehicle", "already assigned"])

    /// Changing a task outcome that is already set.
    public static let taskOutcomeAlreadySet = ErrorCause(
        id: "TASK_OUTCOME_ALREADY_SET", code: .failedPrecondition,
        summary: "The task's outcome is already set and cannot change",
        remedy: "Leave taskOutcome out of the update; an outcome set in error needs a new task.",
        matchPhrases: ["outcome is already set", "cannot change the value of task_outcome"])

    /// Setting the outcome (or its time or place) of a task that is still OPEN.
    public static let taskNotClosed = ErrorCause(
        id: "TASK_NOT_CLOSED", code: .failedPrecondition,
        summary: "The task is still OPEN: its outcome is set once it is closed",
        remedy: "Close the task first (an assigned one by removing it from its vehicle's stops, an unassigned one with state CLOSED, in the same update or before), then set taskOutcome.",
        matchPhrases: ["still open", "once it is closed"])

    /// Setting an outcome's time or place on a task without an outcome.
    public static let taskOutcomeNotSet = ErrorCause(
        id: "TASK_OUTCOME_NOT_SET", code: .failedPrecondition,
        summary: "The task has no outcome: taskOutcomeTime and taskOutcomeLocation belong to its outcome",
        remedy: "Set taskOutcome in the same update (or before); without them the time defaults to now and the place to the vehicle's last location.",
        matchPhrases: ["no outcome yet"])

    /// A vehicle stop the vehicle had arrived at, sent back as NEW or ENROUTE.
    public static let stopStateBackwards = ErrorCause(
        id: "STOP_STATE_BACKWARDS", code: .failedPrecondition,
        summary: "A stop the vehicle arrived at cannot go back to NEW or ENROUTE",
        remedy: "Keep the stop ARRIVED until it is served, then remove it from remainingVehicleJourneySegments (which closes its tasks).",
        matchPhrases: ["arrived", "stop state"])
}

/// The error causes FleetEngine reports, in catalogue order: composed into the product's one catalogue
/// where the executables are wired (`ErrorCatalogue.register`), so `error-explain` knows them.
public enum FleetEngineCauses {
    /// Every cause this module reports.
    public static let all: [ErrorCause] = [
        .vehicleCannotTakeTrip,
        .corruptLearnedTimes,
        .deliveryVehicleNotFound,
        .taskNotFound,
        .trackingIDNotFound,
        .deliveryVehicleHasOpenTasks,
        .taskOpenAndAssigned,
        .assignedTaskClosedByItsStop,
        .taskClosed,
        .taskOnAnotherVehicle,
        .taskOutcomeAlreadySet,
        .taskNotClosed,
        .taskOutcomeNotSet,
        .stopStateBackwards,
    ]
}
