import FleetErrors
import FleetModel

/// Why following ended.
public enum FollowOutcome: Sendable, Hashable {
    /// The trip reached COMPLETE or CANCELED (after its status event was delivered).
    case tripEnded(TripStatus)
    /// The trip reached or passed the `until` status; carries the status seen.
    case untilReached(TripStatus)
    /// The shipment's task closed with this outcome (SUCCEEDED: delivered or picked up; FAILED).
    case shipmentClosed(DeliveryTask.TaskOutcome)
    /// `FollowConfiguration.deadlineSeconds` passed before following ended by itself.
    case deadlinePassed
    /// Stopped from outside (`StopSignal.stop()`: Ctrl-C).
    case stopped
    /// A client error with `failFast`.
    case failed(FleetError)

    /// The exit status: 0 when the trip ended or reached `until` or the shipment's task SUCCEEDED,
    /// `ExitCode.deadlinePassed` (5) at the deadline, `ExitCode.shipmentFailed` (6) for a task that
    /// closed otherwise, `ExitCode.interrupted` (130) when stopped, 10 + the gRPC number for a failure.
    public var exitCode: ExitCode {
        switch self {
        case .tripEnded, .untilReached: .success
        case .shipmentClosed(let outcome): outcome == .succeeded ? .success : .shipmentFailed
        case .deadlinePassed: .deadlinePassed
        case .stopped: .interrupted
        case .failed(let error): ExitCode(error)
        }
    }
}

extension ExitCode {
    /// 5: `--deadline` passed before the trip (or shipment) finished; following stopped.
    public static let deadlinePassed = ExitCode(rawValue: 5)
    /// 6: the followed shipment's task closed FAILED (or with an outcome this build does not know).
    public static let shipmentFailed = ExitCode(rawValue: 6)
    /// 130 (128 + SIGINT): following was stopped by Ctrl-C, as a shell reports a program it interrupted.
    public static let interrupted = ExitCode(rawValue: 130)
    /// 143 (128 + SIGTERM): following was stopped by SIGTERM.
    public static let terminated = ExitCode(rawValue: 143)
}
