/// Turns a text stream, one line at a time, into location samples: NMEA 0183, CSV and JSON Lines.
///
/// Decoders are values that keep what they need between lines (an NMEA fix spreads over several
/// sentences, a CSV file starts with its header). A broken line is counted in `statistics` and skipped;
/// it never stops the stream.
public protocol LocationLineDecoder: Sendable {
    /// Reads one line (without its line break) and returns the samples it completes, often none.
    mutating func decode(line: String) -> [LocationSample]
    /// The input ended: returns what was still pending.
    mutating func finish() -> [LocationSample]
    /// The counters so far.
    var statistics: DecoderStatistics { get }
}

extension LocationLineDecoder {
    /// Decodes a whole text: every line, then `finish()`.
    public mutating func decode(text: String) -> [LocationSample] {
        var samples: [LocationSample] = []
        var lines = LineSplitter()
        samples += lines.append(Array(text.utf8)).flatMap { decode(line: $0) }
        if let last = lines.finish() { samples += decode(line: last) }
        samples += finish()
        return samples
    }
}
