import FleetCLI
import FleetDriver

/// driver-report's options whose values are types, declared once so the parser checks the spelling
/// and the settings read the case, never a string compared at run time.
enum DriverReportOptions {
    /// `--state online|offline`: the one-shot mode.
    enum State: String, OptionValue {
        case online, offline
    }

    /// `--state`.
    static let state = Option.choice("state", of: State.self, help: "One-shot: set the vehicle ONLINE or OFFLINE and exit, without tracking.",
                                     environment: "FLEET_STATE")
    /// `--log-format text|json`.
    static let logFormat = Option.choice("log-format", of: LogFormat.self, valueName: "format", help: "Log lines as text or json.",
                                         default: .text, environment: "FLEET_LOG_FORMAT")
}

extension LogFormat: OptionValue {}
