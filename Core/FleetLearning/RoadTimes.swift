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
    /// One piece's tallies: by slot of the week, and their sum.
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
        }
    }

    /// How lookups weigh the evidence.
    public struct Smoothing: Sendable, Hashable {
        /// Bandwidth of the Gaussian over the time of day, in slots (2: half an hour).
        public var bandwidthSlots = 2.0
        /// Weight of a pass on another weekday at the same time of day, against one on the same weekday.
        public var otherWeekdayWeight = 0.5
        /// Passes' worth of weight the piece's all-week figure adds to a slot's estimate.
        public var allWeekPasses = 1.0

        /// The standard smoothing.
        public init() {}
    }

    /// The pieces learned.
    public private(set) var pieces: [RoadPiece: Piece] = [:]
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
        if let own = pieces[piece] { return own }
        var best: Piece? = nil
        for neighbour in piece.neighbours {
            if let candidate = pieces[neighbour], candidate.total.passes > (best?.total.passes ?? 0) { best = candidate }
        }
        return best
    }

    /// The learned time across `piece` at `slot`: passes near that time of day weigh by a Gaussian of the distance
    /// in time (on another weekday by ``Smoothing/otherWeekdayWeight``), and the piece's all-week figure adds
    /// ``Smoothing/allWeekPasses`` of weight, so a slot with one pass leans on the week. Nil where nothing was
    /// learned on the piece or its neighbours.
    public func pace(_ piece: RoadPiece, slot: WeekSlot) -> LearnedPace? {
        guard let entry = entry(near: piece), let allWeek = entry.total.secondsPerMeter else { return nil }
        var weightedPace = 0.0
        var weight = 0.0
        let weekday = slot.weekday, slotOfDay = slot.slotOfDay
        let perDay = WeekSlot.perDay
        // Only the slots within the kernel's reach of this time of day, on each weekday: found by binary search, so
        // a piece learned at every hour of the week costs no more than one learned a few times.
        for day in 0..<7 {
            let base = day * perDay
            let dayWeight = day == weekday ? 1 : smoothing.otherWeekdayWeight
            let low = slotOfDay - kernelReach, high = slotOfDay + kernelReach
            // The window, wrapped round midnight into the same day's other end: at most two ranges.
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
                    let w = kernel[min(d, perDay - d)] * dayWeight * other.tally.passes
                    weightedPace += w * other.tally.seconds / other.tally.meters
                    weight += w
                }
            }
        }
        let prior = smoothing.allWeekPasses
        return LearnedPace(secondsPerMeter: (weightedPace + prior * allWeek) / (weight + prior), evidence: weight)
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
