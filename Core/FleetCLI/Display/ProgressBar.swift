import Synchronization

/// The one-line progress display of long operations (`list`, `export`, `import`): a bar when the
/// total is known, a running count otherwise. Pure rendering; `ProgressReporter` draws it.
public enum ProgressBar {
    /// `Exporting vehicles [##########----------]  120/240` in `width` columns, or
    /// `Exporting trips… 120` when the total is unknown.
    public static func line(label: String, done: Int, total: Int?, width: Int) -> String {
        guard let total, total > 0 else { return "\(label)… \(done)" }
        let clamped = min(max(done, 0), total)
        let counter = "\(clamped)/\(total)"
        let barWidth = max(10, min(40, width - label.count - counter.count - 5))
        let filled = barWidth * clamped / total
        return "\(label) [" + String(repeating: "#", count: filled) + String(repeating: "-", count: barWidth - filled) + "]  " + counter
    }
}

/// Draws a `ProgressBar` on standard error, only when standard error is a terminal (never into a
/// pipe or a log), redrawing the line in place with `\r` and clearing it when done.
public final class ProgressReporter: Sendable {
    private let output: any TextOutput
    private let width: Int
    private let label: String
    private let shown = Mutex(false)

    /// A reporter for `label` on `output`; it draws nothing unless `output` is a terminal.
    public init(label: String, output: any TextOutput, width: Int = 80) {
        self.label = label
        self.output = output
        self.width = width
    }

    /// Draws the progress (a no-op when not on a terminal).
    public func update(done: Int, total: Int?) {
        guard output.isTerminal else { return }
        output.write("\r\u{1B}[K" + ProgressBar.line(label: label, done: done, total: total, width: width))
        shown.withLock { $0 = true }
    }

    /// Clears the line if anything was drawn.
    public func finish() {
        let wasShown = shown.withLock { value in
            defer { value = false }
            return value
        }
        if wasShown { output.write("\r\u{1B}[K") }
    }
}
