import FleetCLI

/// How results are printed: a table for people (default), Fleet Engine's JSON (`--json`: one
/// object, or an array for lists), or one compact JSON object per line (`--jsonl`, for pipes).
enum OutputFormat: Sendable, Equatable {
    /// Aligned columns for lists, `Label: value` blocks for single resources.
    case table
    /// Indented JSON: one object, or a JSON array for lists.
    case json
    /// One compact JSON object per line.
    case jsonLines

    /// The format the global flags ask for; `--json` with `--jsonl` is a usage error.
    static func chosen(by arguments: ParsedArguments) throws(UsageError) -> OutputFormat {
        switch (arguments.flag("json"), arguments.flag("jsonl")) {
        case (true, true): throw arguments.usageError("--json and --jsonl cannot be used together")
        case (true, false): return .json
        case (false, true): return .jsonLines
        case (false, false): return .table
        }
    }
}
