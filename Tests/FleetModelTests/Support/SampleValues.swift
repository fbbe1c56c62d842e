import FleetModel

// Value makers for the generated samples (Generated/Samples.swift). Values depend on the field number
// and the variant, so two fields never share a value by accident and variants exercise edge cases:
// escapes and non-ASCII text, negative numbers, 0/3/6/9 fraction digits, values beyond 2^53.

/// Nanoseconds that make timestamps and durations print 0, 3, 6 and 9 fraction digits.
let sampleNanos: [Int32] = [0, 120_000_000, 123_456_000, 123_456_789]

/// A string naming its field; every third variant carries quotes, a backslash, control characters and emoji.
func sampleString(_ field: String, _ variant: Int) -> String {
    variant % 3 == 1 ? "\(field) #\(variant) é \"q\" \\ \n\t 😀 \u{1}" : "\(field)-\(variant)"
}

/// An int32 from the field number; every fourth variant negative.
func sampleInt32(_ number: Int, _ variant: Int) -> Int32 {
    let value = Int32(number * 100 + variant)
    return variant % 4 == 3 ? -value : value
}

/// A double from the field number: fractions, negatives, tiny and huge magnitudes.
func sampleDouble(_ number: Int, _ variant: Int) -> Double {
    switch variant % 4 {
    case 0: Double(number) + 0.1
    case 1: -(Double(number) * 1000.5)
    case 2: Double(number) * 1e-7
    default: Double(number) * 1e21
    }
}

/// A float whose shortest form differs from its widened double's (0.1 vs 0.10000000149011612).
func sampleFloat(_ number: Int, _ variant: Int) -> Float {
    variant % 2 == 0 ? Float(number) + 0.1 : Float(number) * 12.5
}

/// A duration from the field number; every fifth variant negative.
func sampleDuration(_ number: Int, _ variant: Int) -> ProtoDuration {
    let duration = ProtoDuration(seconds: Int64(number + variant), nanos: sampleNanos[variant % sampleNanos.count])
    return variant % 5 == 4 ? ProtoDuration(seconds: -duration.seconds, nanos: -duration.nanos) : duration
}

extension Array {
    /// The elements rotated left by `offset` (modulo the count).
    func rotated(by offset: Int) -> [Element] {
        guard !isEmpty else { return self }
        let shift = offset % count
        return Array(self[shift...] + self[..<shift])
    }
}
