#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Facts about the terminal a command writes to.
public enum Terminal {
    /// Whether the file descriptor is a terminal.
    /// The columns of the terminal on `fileDescriptor`: `COLUMNS` when set to a number (so users and
    /// tests can force a width), else the terminal's size (TIOCGWINSZ), else nil.
    public static func columns(of fileDescriptor: Int32, environment: [String: String]) -> Int? {
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
        var size = winsize()
        if ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return nil
    }

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
