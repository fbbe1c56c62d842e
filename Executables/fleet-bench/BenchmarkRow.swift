import Foundation

/// One line of a group's results: what was measured, the figure as a number with its unit, and the
/// ratio against the baseline of the same run where the group has one. The table for people and
/// `--json` are both written from these; only `comparison` is text, the notes and aims beside the
/// figure ("p99 1.2ms; aim >= 30%").
struct BenchmarkRow: Sendable {
    /// Whether the row holds a figure.
    enum Status: String, Sendable {
        /// `value` holds the figure.
        case measured
        /// The group could not run here (a tool or the map missing); `comparison` says why.
        case skipped
        /// The measurement failed; `comparison` says how.
        case failed
        /// A line of text without a figure: a section heading, a note under a row.
        case note
    }

    /// What was measured, e.g. "RouteProgress.update, 10k points, incremental". Tests and the docs read these.
    var name: String
    var status: Status
    /// The figure, nil unless measured.
    var value: Figure?
    /// Further figures shown beside `value` in the same row (the p90 beside a median).
    var also: [Figure] = []
    /// The comparison the row states, as a number: 0.734 for "73.4% of raw batched", 62 for "62x faster
    /// than full search", 1.8 for "1.80x 1 node". Nil where the row has no baseline.
    var ratio: Double?
    /// What `ratio` is against ("raw SQLite upserts, one transaction", "nginx", "1 node").
    var baseline: String?
    /// The notes beside the figure for people: the ratio and aim in words, percentiles, counts.
    var comparison: String

    /// A measured row.
    init(name: String, value: Figure, also: [Figure] = [], comparison: String, ratio: Double? = nil, baseline: String? = nil) {
        self.name = name
        self.status = .measured
        self.value = value
        self.also = also
        self.ratio = ratio
        self.baseline = ratio == nil ? nil : baseline
        self.comparison = comparison
    }

    /// A row whose measurement failed, saying how.
    init(name: String, failed reason: String) {
        self.name = name
        self.status = .failed
        self.comparison = reason
    }

    /// A row of a measurement that cannot run here, saying why.
    init(name: String, skipped reason: String) {
        self.name = name
        self.status = .skipped
        self.comparison = reason
    }

    /// A line without a figure.
    init(note name: String, comparison: String = "") {
        self.name = name
        self.status = .note
        self.comparison = comparison
    }

    /// The heading of a section of the table ("— stores").
    static func heading(_ title: String) -> BenchmarkRow { BenchmarkRow(note: "— \(title)") }

    /// The result column of the table: "18,500 /s", "p99 4.2 ms", "12% / 30%", "failed", "skipped" or nothing.
    var valueText: String {
        switch status {
        case .measured: ([value].compactMap { $0 } + also).map(\.text).joined(separator: " / ")
        case .failed: "failed"
        case .skipped: "skipped"
        case .note: ""
        }
    }
}

/// A measured number and its unit.
struct Figure: Sendable {
    /// The unit a figure is in, which also says how the table shows it.
    enum Unit: String, Sendable {
        case perSecond = "/s"
        /// Shown in ns, µs or ms, whichever reads best.
        case nanoseconds = "ns"
        case microseconds = "µs"
        case milliseconds = "ms"
        case seconds = "s"
        /// In percent: 73.4 is 73.4%.
        case percent = "%"
        /// A count or a ratio, without unit.
        case plain = ""
        case kibibytes = "KiB"
        case megabytes = "MB"
        case fileDescriptors = "fds"
    }

    var value: Double
    var unit: Unit
    /// Digits after the decimal point in the table (not in JSON, which has the whole number).
    var decimals: Int
    /// Which statistic of many measurements the value is ("p99", "median"), when the row's name does not say.
    var statistic: String?

    static func perSecond(_ value: Double) -> Figure { Figure(value: value, unit: .perSecond, decimals: 0) }
    static func nanoseconds(_ value: Double) -> Figure { Figure(value: value, unit: .nanoseconds, decimals: 1) }
    static func microseconds(_ value: Double, decimals: Int = 1) -> Figure { Figure(value: value, unit: .microseconds, decimals: decimals) }
    static func milliseconds(_ value: Double, decimals: Int = 2, statistic: String? = nil) -> Figure {
        Figure(value: value, unit: .milliseconds, decimals: decimals, statistic: statistic)
    }
    static func seconds(_ value: Double, decimals: Int = 2) -> Figure { Figure(value: value, unit: .seconds, decimals: decimals) }
    static func percent(_ value: Double, decimals: Int = 0) -> Figure { Figure(value: value, unit: .percent, decimals: decimals) }
    static func plain(_ value: Double, decimals: Int) -> Figure { Figure(value: value, unit: .plain, decimals: decimals) }
    static func count(_ value: Int) -> Figure { Figure(value: Double(value), unit: .plain, decimals: 0) }
    static func kibibytes(_ value: Int) -> Figure { Figure(value: Double(value), unit: .kibibytes, decimals: 0) }
    static func megabytes(_ value: Double) -> Figure { Figure(value: value, unit: .megabytes, decimals: 0) }
    static func fileDescriptors(_ value: Int) -> Figure { Figure(value: Double(value), unit: .fileDescriptors, decimals: 0) }

    /// As the table shows it: "18,500 /s", "412 ns", "48.3 µs", "p99 4.2 ms", "73%", "1.80".
    var text: String {
        let prefix = statistic.map { "\($0) " } ?? ""
        return prefix + numberText
    }

    private var numberText: String {
        func fixed(_ number: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", number) }
        switch unit {
        case .perSecond: return "\(Self.grouped(Int(value.rounded()))) /s"
        case .nanoseconds:
            if value < 1000 { return "\(Int(value.rounded())) ns" }
            if value < 1_000_000 { return "\(fixed(value / 1000, decimals)) µs" }
            return "\(fixed(value / 1_000_000, decimals)) ms"
        case .percent: return "\(fixed(value, decimals))%"
        case .plain: return fixed(value, decimals)
        default: return "\(fixed(value, decimals)) \(unit.rawValue)"
        }
    }

    /// 18500 as "18,500".
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value.magnitude))
        var text = value < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}

extension BenchmarkRow: Encodable {
    private enum Key: String, CodingKey { case name, status, value, unit, statistic, also, ratio, baseline, comparison }

    /// `{"name":…,"status":"measured","value":18500.3,"unit":"/s","ratio":0.73,"baseline":…,"comparison":…}`;
    /// a number that is not finite is written as null.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(name, forKey: .name)
        try container.encode(status.rawValue, forKey: .status)
        if let value {
            try container.encode(Self.finite(value.value), forKey: .value)
            try container.encode(value.unit.rawValue, forKey: .unit)
            try container.encodeIfPresent(value.statistic, forKey: .statistic)
        }
        if !also.isEmpty { try container.encode(also, forKey: .also) }
        if let ratio {
            try container.encode(Self.finite(ratio), forKey: .ratio)
            try container.encodeIfPresent(baseline, forKey: .baseline)
        }
        if !comparison.isEmpty { try container.encode(comparison, forKey: .comparison) }
    }

    fileprivate static func finite(_ number: Double) -> Double? { number.isFinite ? number : nil }
}

extension Figure: Encodable {
    private enum Key: String, CodingKey { case value, unit, statistic }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(BenchmarkRow.finite(value), forKey: .value)
        try container.encode(unit.rawValue, forKey: .unit)
        try container.encodeIfPresent(statistic, forKey: .statistic)
    }
}
