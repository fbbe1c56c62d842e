/// How a tool prints for people or programs: `--json`, `--jsonl`, `--no-color`. Shared by
/// fleet-admin and consumer-follow, so the same flags mean the same thing in both.
public struct OutputGroup: OptionGroup, Hashable {
    /// What the output is.
    public enum Format: Sendable, Hashable {
        /// For people: tables, blocks, readable lines or a live panel.
        case text
        /// `--json`: Fleet Engine's JSON (one object, or an array for a list; one object a line for a stream of events).
        case json
        /// `--jsonl`: one compact JSON object per line.
        case jsonLines
    }

    /// `--json`, `-j`.
    public static let json = OptionDefinition.flag(
        "json", short: "j", help: "Print Fleet Engine's JSON: one object, or a JSON array for lists (events: one object per line).")
    /// `--jsonl`.
    public static let jsonLines = OptionDefinition.flag("jsonl", help: "Print one compact JSON object per line (for pipes and jq).")
    /// `--no-color`.
    public static let noColor = OptionDefinition.flag(
        "no-color", help: "Never colour the output (colour is used only on a terminal, and never with NO_COLOR set).")
    /// The group's options.
    public static let options = [json, jsonLines, noColor]

    /// The format asked for.
    public let format: Format
    /// Whether `--no-color` was given.
    public let noColor: Bool

    /// Reads the flags; `--json` with `--jsonl` is a usage error.
    public init(_ arguments: ParsedArguments) throws(UsageError) {
        switch (arguments.flag(Self.json), arguments.flag(Self.jsonLines)) {
        case (true, true): throw arguments.usageError("--json and --jsonl cannot be used together")
        case (true, false): format = .json
        case (false, true): format = .jsonLines
        case (false, false): format = .text
        }
        noColor = arguments.flag(Self.noColor)
    }

    /// Whether the output is JSON of either kind.
    public var isJSON: Bool { format != .text }

    /// `style` unless `--no-color` was given (then plain).
    public func style(_ style: Style) -> Style { noColor ? .plain : style }
}
