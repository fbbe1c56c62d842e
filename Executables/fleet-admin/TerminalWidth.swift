#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The width tables fit on a terminal.
enum TerminalWidth {
    /// The columns of the terminal on `fileDescriptor`: `COLUMNS` when set to a number, else the
    /// terminal's size, else nil (not a terminal: tables keep their natural width).
    static func columns(fileDescriptor: Int32, isTerminal: Bool, environment: [String: String]) -> Int? {
        guard isTerminal else { return nil }
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
        var size = winsize()
        if ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}
