/// Conversions from computed `Double`s (distances, durations, times derived from request values) to the
/// fixed-width fields of Fleet Engine's messages that never trap: a value beyond the field's range is
/// clamped to it and NaN becomes zero. Swift's `Int32(_: Double)` traps on such values, and a request must
/// never be able to stop a server thread.
extension Int32 {
    /// `value` rounded to the nearest integer (halves away from zero), clamped to `Int32.min...Int32.max`;
    /// NaN gives 0.
    public init(roundingClamped value: Double) {
        guard !value.isNaN else { self = 0; return }
        let rounded = value.rounded(.toNearestOrAwayFromZero)
        if rounded >= Double(Int32.max) { self = .max }
        else if rounded <= Double(Int32.min) { self = .min }
        else { self = Int32(rounded) }
    }
}

extension Int64 {
    /// `value` rounded toward zero, clamped to `-limit...limit`; NaN gives 0.
    init(truncatingClamped value: Double, limit: Int64) {
        guard !value.isNaN else { self = 0; return }
        let whole = value.rounded(.towardZero)
        if whole >= Double(limit) { self = limit }
        else if whole <= -Double(limit) { self = -limit }
        else { self = Int64(whole) }
    }
}
