import Foundation

/// Where the auth code reads the time: seconds since 1970-01-01T00:00:00Z, the unit of JWT's
/// NumericDate (`iat`, `exp`, `nbf`). Injected everywhere so tests never sleep for time to pass.
public typealias EpochClock = @Sendable () -> Double

/// The system's wall clock as an `EpochClock`.
public let systemEpochClock: EpochClock = { Date().timeIntervalSince1970 }
