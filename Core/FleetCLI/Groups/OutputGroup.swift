/// How a tool prints for people or programs: `--json`, `--jsonl`, `--no-color`. Shared by
/// fleet-admin and consumer-follow, so the same flags mean the same thing in both.
public struct OutputGroup: OptionGroup {
    /// What the output is.
    public enum Format: Sendable, Hashable {
        /// For people: tables, blocks, readable lines or a live panel.
        case text
        /// `--json`: Fleet Engine's JSON (one object, or an array for a list; one object a line for a stream of events).
        case json
        /// `--jsonl`: one compact JSON object per line.
        case jsonLines
    }

    @Flag("json", short: "j", help: "Print Fleet Engine's JSON: one object, or a JSON array for lists (events: one object per line).")
    private var json: Bool
    @Flag("jsonl", help: "Print one compact JSON object per line (for pipes and jq).")
    private var jsonLines: Bool
    /// Whether `--no-color` was given.
    @Flag("no-color", help: "Never colour the output (colour is used only on a terminal, and never with NO_COLOR set).")
    public var noColor: Bool

    /// No flag given.
    public init() {}

    /// `--json` with `--jsonl` is a usage error.
    public func validate() throws(ValidationError) {
        if json && jsonLines { throw ValidationError("--json and --jsonl cannot be used together") }
    }

    /// The format asked for.
    public var format: Format { json ? .json : jsonLines ? .jsonLines : .text }

    /// Whether the output is JSON of either kind.
    public var isJSON: Bool { format != .text }

    /// `style` unless `--no-color` was given (then plain).
    public func style(_ style: Style) -> Style { noColor ? .plain : style }
}
