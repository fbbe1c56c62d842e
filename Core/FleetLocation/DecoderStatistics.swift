/// What a decoder made of its input so far: the counters behind the status file's `badSentences`.
public struct DecoderStatistics: Sendable, Hashable {
    /// Lines (sentences, rows, objects) read, blank lines and comments excluded.
    public var lines = 0
    /// Samples produced.
    public var samples = 0
    /// Lines that were broken: a bad checksum, a malformed field, a row or object that does not parse.
    public var bad = 0
    /// Well-formed lines that carry nothing to report (other NMEA sentence types, gpsd SKY reports).
    public var ignored = 0
    /// Fixes the source marked as no fix (NMEA quality 0 or status V, gpsd mode below 2), skipped.
    public var noFix = 0
    /// Why the last bad line was bad, for logs.
    public var lastProblem: String?

    /// No counts yet.
    public init() {}

    /// Adds another decoder's counts to these (the last problem of `other` wins when it has one).
    public mutating func add(_ other: DecoderStatistics) {
        lines += other.lines
        samples += other.samples
        bad += other.bad
        ignored += other.ignored
        noFix += other.noFix
        if let problem = other.lastProblem { lastProblem = problem }
    }
}
