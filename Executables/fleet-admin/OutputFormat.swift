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

    /// The format the shared output flags ask for (`OutputGroup`).
    init(_ format: OutputGroup.Format) {
        switch format {
        case .text: self = .table
        case .json: self = .json
        case .jsonLines: self = .jsonLines
        }
    }
}
