/// A quarter of an hour of the week, in the fleet's local time: 0 is Monday 00:00–00:15, 671 Sunday 23:45–24:00.
/// Travel times are learned per slot, so Monday's rush hour and Sunday morning are told apart.
public struct WeekSlot: Hashable, Sendable, Comparable {
    /// 0 ..< ``count``.
    public var index: Int

    /// Seconds a slot lasts.
    public static let seconds = 900.0
    /// Slots in a week.
    public static let count = 672
    /// Slots in a day.
    public static let perDay = 96

    /// A slot by its index, wrapped into the week.
    public init(index: Int) {
        let wrapped = index % Self.count
        self.index = wrapped < 0 ? wrapped + Self.count : wrapped
    }

    /// The slot holding `epochSeconds` (Unix time) in a zone `utcOffsetSeconds` ahead of UTC (3600 for CET).
    public init(epochSeconds: Double, utcOffsetSeconds: Double = 0) {
        self.init(index: Int(Self.quarterHours(epochSeconds: epochSeconds, utcOffsetSeconds: utcOffsetSeconds).rounded(.down)))
    }

    /// Quarter hours from the first Monday 00:00 after the epoch to `epochSeconds`, in a zone `utcOffsetSeconds` ahead
    /// of UTC, unrounded: the slot holding `epochSeconds` is this rounded down, wrapped into the week. Times later by
    /// any amount give a number at least as large.
    public static func quarterHours(epochSeconds: Double, utcOffsetSeconds: Double = 0) -> Double {
        // 1970-01-01 was a Thursday: Monday 00:00 falls four days after the epoch.
        let sinceMonday = epochSeconds + utcOffsetSeconds - 4 * 86_400
        return sinceMonday / Self.seconds
    }

    /// Slots between two slots of the week, the short way round (0 ... 336).
    public func distance(to other: WeekSlot) -> Int {
        let d = abs(index - other.index)
        return min(d, Self.count - d)
    }

    /// The day of the week, 0 Monday … 6 Sunday.
    public var weekday: Int { index / Self.perDay }

    /// The slot of the day, 0 ..< 96.
    public var slotOfDay: Int { index % Self.perDay }

    /// `Mon 17:15`.
    public var name: String {
        let day = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][weekday]
        let minutes = slotOfDay * 15
        let hour = minutes / 60, minute = minutes % 60
        return "\(day) \(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute)"
    }

    public static func < (a: WeekSlot, b: WeekSlot) -> Bool { a.index < b.index }
}
