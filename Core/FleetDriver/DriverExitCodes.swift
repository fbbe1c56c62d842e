import FleetErrors

/// driver-report's own exit codes, beside the shared ones (0 success, 2 usage, 10 + gRPC number for a
/// fatal start-up error such as NOT_FOUND 15 for a vehicle that does not exist).
extension ExitCode {
    /// 3: tracking stopped, but the final update (OFFLINE; a delivery vehicle's last location) was not
    /// acknowledged before the deadline (`--stop-timeout`), or a client error made retrying it pointless:
    /// the vehicle may still be ONLINE.
    public static let offlineNotAcknowledged = ExitCode(rawValue: 3)
    /// 4: the location source failed (a device or pipe that could not be read); the final update was sent.
    public static let locationSourceFailed = ExitCode(rawValue: 4)
}
