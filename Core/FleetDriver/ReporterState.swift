/// Where the reporter is in its life, as the status file and logs name it.
public enum ReporterState: String, Sendable, Hashable, CaseIterable {
    /// Started, the first update not yet acknowledged.
    case starting = "STARTING"
    /// Tracking: the vehicle is ONLINE and locations are being reported.
    case reporting = "REPORTING"
    /// Stopping: the final OFFLINE update is being sent.
    case stopping = "STOPPING"
    /// Stopped, and the server acknowledged the vehicle OFFLINE.
    case offline = "OFFLINE"
    /// Stopped, but the final OFFLINE update was not acknowledged before the deadline.
    case offlineNotAcknowledged = "OFFLINE_NOT_ACKNOWLEDGED"
    /// A delivery vehicle (which has no OFFLINE) stopped, its last location acknowledged.
    case stopped = "STOPPED"
    /// A delivery vehicle stopped, but its last location was not acknowledged before the deadline.
    case stoppedNotAcknowledged = "STOPPED_NOT_ACKNOWLEDGED"
}
