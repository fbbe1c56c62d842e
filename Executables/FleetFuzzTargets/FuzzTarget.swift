/// One fuzz target: a name (the corpus folder under `Tests/Fuzz/corpus/`) and a function that takes
/// any bytes and must neither trap nor hang. Failures it is meant to find are traps: overflow,
/// out-of-range indices, forced unwraps, broken invariants checked with `precondition`.
public struct FuzzTarget: Sendable {
    /// The target's name, as `make fuzz` and `fleet-fuzz` take it.
    public let name: String
    /// What the target exercises, for `fleet-fuzz --list`.
    public let summary: String
    /// Runs one input.
    public let run: @Sendable (UnsafeRawBufferPointer) -> Void

    public init(name: String, summary: String, run: @escaping @Sendable (UnsafeRawBufferPointer) -> Void) {
        self.name = name
        self.summary = summary
        self.run = run
    }

    /// Every target, in the order `make fuzz` runs them.
    public static let all: [FuzzTarget] = [json, messages, protobuf, rest, engine, filter, jwt, polyline, nmea, gpx, csv, jsonl]

    /// The target named `name`, or nil.
    public static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}

/// The input as text, as a server would read a UTF-8 body (invalid bytes become U+FFFD).
func text(_ data: UnsafeRawBufferPointer) -> String {
    String(decoding: data, as: UTF8.self)
}

/// Stops the run with a message libFuzzer records with the crash input: an invariant broke.
func invariant(_ condition: Bool, _ message: @autoclosure () -> String) {
    precondition(condition, message())
}
