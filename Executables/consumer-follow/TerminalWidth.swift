#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The width of the terminal the panel is drawn on.
enum TerminalWidth {
    /// The columns of the terminal on `fileDescriptor` (TIOCGWINSZ), else `COLUMNS`, else 80.
    static func columns(of fileDescriptor: Int32, environment: [String: String]) -> Int {
        var size = winsize()
        if ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
        return 80
    }
}
