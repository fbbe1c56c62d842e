#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Facts about the terminal a command writes to.
public enum Terminal {
    /// Whether the file descriptor is a terminal.
    public static func isTTY(_ fileDescriptor: Int32) -> Bool {
        isatty(fileDescriptor) == 1
    }

    /// Whether to colour a stream: never when `NO_COLOR` is set and not empty (no-color.org),
    /// always when `FORCE_COLOR` or `CLICOLOR_FORCE` is set and not `0`, never when `TERM=dumb`,
    /// otherwise only when the stream is a terminal.
    public static func wantsColor(isTerminal: Bool, environment: [String: String]) -> Bool {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        for variable in ["FORCE_COLOR", "CLICOLOR_FORCE"] {
            if let value = environment[variable], !value.isEmpty, value != "0" { return true }
        }
        if environment["TERM"] == "dumb" { return false }
        return isTerminal
    }

    /// The style for writing to `output`.
    public static func style(for output: any TextOutput, environment: [String: String]) -> Style {
        Style(enabled: wantsColor(isTerminal: output.isTerminal, environment: environment))
    }
}
