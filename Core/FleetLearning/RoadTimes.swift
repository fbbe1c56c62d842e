#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the fleet's drives over one piece of road in one slot of the week add up to. Sums only, so tallies learned
/// apart (by two nodes, or from two stretches of history) merge by adding, and thin evidence shows as few passes.
public struct PieceTally: Hashable, Sendable {
    /// Seconds spent crossing the piece, waits included.
    public var seconds: Double
    /// Metres driven across it.
    public var meters: Double
    /// Times a vehicle crossed it.
    public var passes: Double
    /// Of those passes, how many stood still on it (a stop, a light, a queue).
    public var waits: Double
    /// Seconds those waits lasted, together.
    public var waitSeconds: Double

    /// A tally.
    public init(seconds: Double = 0, meters: Double = 0, passes: Double = 0, waits: Double = 0, waitSeconds: Double = 0) {
        self.seconds = seconds
        self.meters = meters
        self.passes = passes
        self.waits = waits
        self.waitSeconds = waitSeconds
    }

    /// Adds another tally's sums.
    public mutating func add(_ other: PieceTally) {
        seconds += other.seconds
        meters += other.meters
        passes += other.passes
        waits += other.waits
        waitSeconds += other.waitSeconds
    }

    /// Seconds per metre, waits included; nil before anything was driven.
    public var secondsPerMeter: Double? { meters > 0 ? seconds / meters : nil }
}

/// A learned time for a stretch, with the evidence behind it.
public struct LearnedPace: Hashable, Sendable {
    /// Seconds per metre, waits included.
    public var secondsPerMeter: Double
    /// How many passes stand behind it, weighted by how near in time of week they were: a weight, not a count.
    public var evidence: Double
}

/// How often vehicles stand on a piece, and for how long.
public struct WaitFigures: Hashable, Sendable {
    /// Passes seen.
    public var passes: Double
    /// Share of passes with a wait (0 ... 1).
    public var chance: Double
    /// Mean length of a wait, seconds (0 when none was seen).
    public var meanSeconds: Double
}

/// The fleet's learned travel times and waits: per directed piece of road (``RoadPiece``) and quarter hour of the
/// week (``WeekSlot``), the sums of every pass recorded. It holds no vehicle or trip: only where, when and how long.
///
/// A value: learned from history by ``DriveLearner``, kept in the store as rows (``rows``), and read back by every
/// node. Lookups smooth over neighbouring quarter hours and other weekdays, and pull thin evidence towards the
/// piece's all-week figure (``Smoothing``).
public struct RoadTimes: Sendable {
    /// One piece's tallies: by slot of the week, and their sum. Two pieces are equal when their tallies are.
    public struct Piece: Sendable, Hashable {
        /// One slot's tally.
        public struct Slot: Sendable, Hashable {
            /// The slot's index in the week (``WeekSlot/index``).
            public var index: Int
            public var tally: PieceTally
        }

        /// Tallies by slot, in slot order: a lookup walks them in one pass over contiguous memory.
        public private(set) var slots: [Slot] = []
        /// The sum over all slots.
        public private(set) var total = PieceTally()
        /// The smoothed pace at every slot of the week, once ``RoadTimes/precomputePaces()`` computed it; nil until then
        /// and again after a tally is added.
        public internal(set) var paces: PaceTable? = nil

        /// Equal tallies (the paces derive from them).
        public static func == (a: Piece, b: Piece) -> Bool { a.slots == b.slots && a.total == b.total }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(slots)
            hasher.combine(total)
        }

        /// The position of the first slot at or after `index` (binary search).
        func position(atLeast index: Int) -> Int {
            var low = 0, high = slots.count
            while low < high {
                let middle = (low + high) / 2
                if slots[middle].index < index { low = middle + 1 } else { high = middle }
            }
            return low
        }

        mutating func add(_ tally: PieceTally, slot: WeekSlot) {
            let low = position(atLeast: slot.index)
            if low < slots.count, slots[low].index == slot.index {
                slots[low].tally.add(tally)
            } else {
                slots.insert(Slot(index: slot.index, tally: tally), at: low)
            }
            total.add(tally)
            paces = nil
        }
    }

    /// One piece's learned pace at every quarter hour of the week, as ``RoadTimes/pace(_:slot:)`` gives it (the same
    /// figure to the last bit), computed once for all the slots (``RoadTimes/precomputePaces()``): timing a route
    /// with it is a lookup per piece, not a sum over the piece's passes. A reference, so the routes that cross the
    /// piece share one table.
    public final class PaceTable: Sendable {
        /// The piece's pace over the whole week, seconds per metre (``RoadTimes/allWeekPace(_:)``).
        public let allWeekSecondsPerMeter: Double
        /// Per slot of the day, the column of `values` that holds its seven weekdays, or `elsewhereColumn` where no
        /// pass on any weekday is within the kernel's reach of that time of day; empty when every slot of the day has
        /// its column, in order (a piece driven at all hours), so a lookup reads `values` alone.
        private let columns: [UInt8]
        /// Seconds per metre, seven weekdays per column.
        private let values: [Double]
        /// Seconds per metre at a time of day no pass is near: the all-week figure, pulled by nothing else.
        private let elsewhere: Double

        static let elsewhereColumn = UInt8.max

        init(allWeekSecondsPerMeter: Double, columns: [UInt8], values: [Double], elsewhere: Double) {
            self.allWeekSecondsPerMeter = allWeekSecondsPerMeter
            self.columns = columns
            self.values = values
            self.elsewhere = elsewhere
        }

        /// Seconds per metre across the piece at `slot`.
        public func secondsPerMeter(at slot: WeekSlot) -> Double {
            if columns.isEmpty { return values[slot.slotOfDay * 7 + slot.weekday] }
            let column = columns[slot.slotOfDay]
            return column == Self.elsewhereColumn ? elsewhere : values[Int(column) * 7 + slot.weekday]
        }
    }

    /// How lookups weigh the evidence.
    public struct Smoothing: Sendable, Hashable {
        /// Bandwidth of the Gaussian over the time of day, in slots (2: half an hour).
        public var bandwidthSlots = 2.0
        /// Weight of a pass on another weekday at the same time of day, against one on the same weekday.
        public var otherWeekdayWeight = 0.5
        /// Passes' worth of weight the piece's all-week figure adds to a slot's estimate (each of the mean length of the
        /// passes it is added to).
        public var allWeekPasses = 1.0

        /// The standard smoothing.
        public init() {}
    }

    /// The pieces learned.
    public private(set) var pieces: [RoadPiece: Piece] = [:] {
        didSet { paceIndex = nil }
    }
    /// Each learned piece's passes and ``PaceTable`` (nil where its tallies give none), as ``precomputePaces()`` left
    /// them: a route reads one per stretch (``paceTable(near:)``, the neighbours' where its own piece has none), and
    /// this lookup skips `pieces`' SipHash and the copy of the piece's entry. Nil until then, and again after any
    /// change to `pieces`.
    private var paceIndex: RoadKeyTable<RoadPiece, IndexedPaces>? = nil

    /// What ``paceTable(near:)`` reads of a piece: its passes, to pick among neighbours, and its table.
    private struct IndexedPaces: Sendable {
        var passes: Double
        var table: PaceTable?
    }
    /// How lookups smooth.
    public let smoothing: Smoothing
    /// Kernel weights by distance in slots of the day, precomputed (zero beyond three bandwidths).
    private let kernel: [Double]
    /// Slots of the day beyond which the kernel is zero.
    private let kernelReach: Int

    /// An empty table.
    public init(smoothing: Smoothing = Smoothing()) {
        self.smoothing = smoothing
        let reach = min(WeekSlot.perDay / 2 - 1, Int((3 * smoothing.bandwidthSlots).rounded(.up)))
        kernelReach = reach
        kernel = (0...WeekSlot.perDay / 2).map { d in
            d > reach ? 0 : exp(-0.5 * pow(Double(d) / smoothing.bandwidthSlots, 2))
        }
    }

    /// Adds what was driven over `piece` in `slot`.
    public mutating func add(_ tally: PieceTally, on piece: RoadPiece, in slot: WeekSlot) {
        pieces[piece, default: Piece()].add(tally, slot: slot)
    }

    /// Adds observations a ``DriveLearner`` made.
    public mutating func add(_ observations: [PieceObservation]) {
        for observation in observations { add(observation.tally, on: observation.piece, in: observation.slot) }
    }

    /// Adds every tally of another table.
    public mutating func merge(_ other: RoadTimes) {
        for (piece, entry) in other.pieces {
            for slot in entry.slots { add(slot.tally, on: piece, in: WeekSlot(index: slot.index)) }
        }
    }

    /// The table as rows, one per piece and slot, in a stable order: what a store keeps.
    public var rows: [PieceObservation] {
        pieces.keys.sorted().flatMap { piece in
            pieces[piece]!.slots.map { slot in
                PieceObservation(piece: piece, slot: WeekSlot(index: slot.index), tally: slot.tally)
            }
        }
    }

    /// How much is learned: pieces, slot rows and passes in all.
    public var extent: (pieces: Int, rows: Int, passes: Double) {
        pieces.values.reduce((pieces.count, 0, 0.0)) { ($0.0, $0.1 + $1.slots.count, $0.2 + $1.total.passes) }
    }

    /// The piece's own entry, or, when nothing was learned on it, the neighbour in the same direction with the most
    /// passes (GPS wander puts a position a few metres into the next square).
    public func entry(near piece: RoadPiece) -> Piece? {
        Self.nearest(piece, in: { pieces[$0] }, passes: \.total.passes)
    }

    /// What `lookup` has for `piece`, else for the neighbour (``RoadPiece/neighbours``) with the most passes, the
    /// first of equals; nil when neither the piece nor a neighbour with a pass has anything.
    private static func nearest<Entry>(_ piece: RoadPiece, in lookup: (RoadPiece) -> Entry?,
                                       passes: (Entry) -> Double) -> Entry? {
        if let own = lookup(piece) { return own }
        var best: Entry? = nil
        piece.forEachNeighbour { neighbour in
            if let candidate = lookup(neighbour), passes(candidate) > (best.map(passes) ?? 0) { best = candidate }
        }
        return best
    }

    /// The learned time across `piece` at `slot`: the seconds over the metres of the passes near that time of day,
    /// each weighed by a Gaussian of the distance in time (on another weekday by ``Smoothing/otherWeekdayWeight``),
    /// and the piece's all-week figure adds ``Smoothing/allWeekPasses`` passes' worth, so a slot with one pass leans on
    /// the week. Nil where nothing was
    /// learned on the piece or its neighbours. Timing many stretches, read the piece's ``PaceTable`` instead
    /// (``precomputePaces()``, ``paceTable(of:)``): the same figure, looked up.
    public func pace(_ piece: RoadPiece, slot: WeekSlot) -> LearnedPace? {
        guard let entry = entry(near: piece), let allWeek = entry.total.secondsPerMeter else { return nil }
        let slotOfDay = slot.slotOfDay
        let perDay = WeekSlot.perDay
        var days = [DaySums](repeating: DaySums(), count: 7)
        // Only the slots within the kernel's reach of this time of day, on each weekday: found by binary search, so
        // a piece learned at every hour of the week costs no more than one learned a few times. Each day's slots are
        // summed in index order, as `paceTable(of:)` sums them.
        for day in 0..<7 {
            let base = day * perDay
            let low = slotOfDay - kernelReach, high = slotOfDay + kernelReach
            // The window, wrapped round midnight into the same day's other end: at most two ranges, in index order.
            for part in 0..<2 {
                let (first, last): (Int, Int)
                if low < 0 {
                    (first, last) = part == 0 ? (base, base + high) : (base + low + perDay, base + perDay - 1)
                } else if high >= perDay {
                    (first, last) = part == 0 ? (base, base + high - perDay) : (base + low, base + perDay - 1)
                } else {
                    guard part == 0 else { break }
                    (first, last) = (base + low, base + high)
                }
                var position = entry.position(atLeast: first)
                while position < entry.slots.count, entry.slots[position].index <= last {
                    let other = entry.slots[position]
                    position += 1
                    guard other.tally.meters > 0 else { continue }
                    let d = abs(other.index - base - slotOfDay)
                    days[day].add(other.tally, kernel: kernel[min(d, perDay - d)])
                }
            }
        }
        return combine(days[...], weekday: slot.weekday, allWeek: allWeek)
    }

    /// The smoothed paces of `entry` (a piece's own, or a neighbour's: ``entry(near:)``) at every slot of the week:
    /// the one kept with it (``precomputePaces()``), else computed now, in O(passes' slots × kernel + 7 × 96).
    /// Nil when nothing was driven across it.
    public func paceTable(of entry: Piece) -> PaceTable? {
        if let kept = entry.paces { return kept }
        guard let allWeek = entry.total.secondsPerMeter else { return nil }
        let perDay = WeekSlot.perDay
        // Each slot's passes added to the times of day within the kernel's reach, on its own weekday: the sums
        // `pace` gathers, scattered, slot by slot in index order (so each sum adds the same terms in the same order).
        // By time of day, then weekday.
        var sums = [DaySums](repeating: DaySums(), count: WeekSlot.count)
        var near = [Bool](repeating: false, count: perDay)
        for slot in entry.slots where slot.tally.meters > 0 {
            let day = slot.index / perDay, slotOfDay = slot.index % perDay
            for offset in -kernelReach...kernelReach {
                let time = (slotOfDay + offset + perDay) % perDay
                sums[time * 7 + day].add(slot.tally, kernel: kernel[abs(offset)])
                near[time] = true
            }
        }
        let nearCount = near.filter { $0 }.count
        var columns = nearCount == perDay ? [] : [UInt8](repeating: PaceTable.elsewhereColumn, count: perDay)
        var values: [Double] = []
        values.reserveCapacity(7 * nearCount)
        for time in 0..<perDay where near[time] {
            if !columns.isEmpty { columns[time] = UInt8(values.count / 7) }
            for weekday in 0..<7 {
                values.append(combine(sums[time * 7 ..< time * 7 + 7], weekday: weekday, allWeek: allWeek).secondsPerMeter)
            }
        }
        let elsewhere = combine([DaySums](repeating: DaySums(), count: 7)[...], weekday: 0, allWeek: allWeek).secondsPerMeter
        return PaceTable(allWeekSecondsPerMeter: allWeek, columns: columns, values: values, elsewhere: elsewhere)
    }

    /// The ``PaceTable`` of the entry ``entry(near:)`` finds for `piece`, as ``paceTable(of:)`` gives it (a route's
    /// stretches look one up each): from the tables ``precomputePaces()`` indexed, else reading the piece's own entry
    /// in place.
    public func paceTable(near piece: RoadPiece) -> PaceTable? {
        if let paceIndex {
            // Picked as `entry(near:)` picks.
            return Self.nearest(piece, in: { paceIndex[$0] }, passes: \.passes)?.table ?? nil
        }
        if let index = pieces.index(forKey: piece) {
            if let kept = pieces.values[index].paces { return kept }
            return paceTable(of: pieces.values[index])
        }
        return entry(near: piece).flatMap(paceTable(of:))
    }

    /// Computes every piece's ``PaceTable`` and keeps it with the piece, so route timing looks paces up: do it once
    /// the tables are read (not while learning: adding a tally drops the piece's table).
    public mutating func precomputePaces() {
        for index in pieces.values.indices {
            pieces.values[index].paces = paceTable(of: pieces.values[index])
        }
        var paceIndex = RoadKeyTable<RoadPiece, IndexedPaces>()
        for (piece, entry) in pieces { paceIndex[piece] = IndexedPaces(passes: entry.total.passes, table: entry.paces) }
        self.paceIndex = paceIndex
    }

    /// One weekday's passes near a time of day, each slot's sums weighed by the kernel (its distance in time of day):
    /// passes, seconds and metres.
    private struct DaySums {
        var passes = 0.0
        var seconds = 0.0
        var meters = 0.0

        /// Adds a slot's tally at kernel weight `kernel`.
        mutating func add(_ tally: PieceTally, kernel: Double) {
            passes += kernel * tally.passes
            seconds += kernel * tally.seconds
            meters += kernel * tally.meters
        }
    }

    /// The pace on `weekday` from the seven weekdays' sums (in weekday order; other weekdays at
    /// ``Smoothing/otherWeekdayWeight``) and the all-week prior: their seconds over their metres, so a pass weighs by
    /// the metres it drove across the piece (a pass that clipped a corner of the square, or a fix that fell on it
    /// while the vehicle stood, does not set the pace of a whole crossing), and the prior adds
    /// ``Smoothing/allWeekPasses`` passes of the mean length of those weighed (a whole square's when there are none).
    private func combine(_ days: ArraySlice<DaySums>, weekday: Int, allWeek: Double) -> LearnedPace {
        var passes = 0.0, seconds = 0.0, meters = 0.0
        for day in 0..<7 {
            let dayWeight = day == weekday ? 1 : smoothing.otherWeekdayWeight
            let sums = days[days.startIndex + day]
            passes += dayWeight * sums.passes
            seconds += dayWeight * sums.seconds
            meters += dayWeight * sums.meters
        }
        let priorMeters = smoothing.allWeekPasses * (passes > 0 ? meters / passes : RoadPiece.sizeMeters)
        return LearnedPace(secondsPerMeter: (seconds + priorMeters * allWeek) / (meters + priorMeters), evidence: passes)
    }

    /// The learned time across `piece` over the whole week, ignoring the time of day: what a stretch far ahead is
    /// timed with, where the hour the vehicle will get there is itself uncertain. Nil where nothing was learned on the
    /// piece or its neighbours.
    public func allWeekPace(_ piece: RoadPiece) -> LearnedPace? {
        guard let entry = entry(near: piece), let pace = entry.total.secondsPerMeter else { return nil }
        return LearnedPace(secondsPerMeter: pace, evidence: entry.total.passes)
    }

    /// How often and how long vehicles stand on `piece` (its own entry only), over the whole week or near `slot`.
    public func waits(on piece: RoadPiece, near slot: WeekSlot? = nil) -> WaitFigures? {
        guard let entry = pieces[piece] else { return nil }
        var sum = PieceTally()
        if let slot {
            for other in entry.slots where WeekSlot(index: other.index).distance(to: slot) <= Int(3 * smoothing.bandwidthSlots) {
                sum.add(other.tally)
            }
        } else {
            sum = entry.total
        }
        guard sum.passes > 0 else { return nil }
        return WaitFigures(passes: sum.passes, chance: min(1, sum.waits / sum.passes),
                           meanSeconds: sum.waits > 0 ? sum.waitSeconds / sum.waits : 0)
    }
}

/// One learned row: what was driven over one piece in one slot.
public struct PieceObservation: Hashable, Sendable {
    /// Where.
    public var piece: RoadPiece
    /// When.
    public var slot: WeekSlot
    /// What it added up to.
    public var tally: PieceTally

    /// A row.
    public init(piece: RoadPiece, slot: WeekSlot, tally: PieceTally) {
        self.piece = piece
        self.slot = slot
        self.tally = tally
    }
}
