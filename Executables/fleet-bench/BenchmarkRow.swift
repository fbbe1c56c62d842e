/// One line of the `make bench` table.
struct BenchmarkRow: Sendable {
    /// What was measured, e.g. "RouteProgress.update, 10k points, incremental".
    var name: String
    /// The measured figure, already formatted ("412 ns", "18,500 /s").
    var value: String
    /// The ratio against the baseline of the same run, or the aim it is held to ("62x full search; aim >= 50x").
    var comparison: String
}
