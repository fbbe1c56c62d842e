import FleetGeo

/// Turns one vehicle's reported positions into learned rows: the seconds it spent on each directed piece of road it
/// crossed, and where it stood still.
///
/// The path between two fixes is taken as straight and driven at an even pace, and cut into steps of
/// ``stepMeters``; each step belongs to the piece under its middle, in the direction of the step. Time spent
/// standing (fixes that barely move) therefore falls on the step where the vehicle stood, and a wait at a stop
/// stays at the stop. Consecutive steps on one piece make one pass. Where the vehicle averaged under
/// ``standingMetersPerSecond`` between fixes, the interval is a wait, recorded on the piece the vehicle then left by.
///
/// Gaps longer than ``maximumGapSeconds`` (the vehicle switched off, or out of coverage), and jumps faster than
/// ``maximumMetersPerSecond``, split the positions into separate drives: nothing is learned across them.
public struct DriveLearner: Sendable {
    /// Length of a step, metres.
    public var stepMeters = 10.0
    /// Below this average speed between two fixes the vehicle counts as standing (1 m/s, as the evaluation's
    /// waits cut out).
    public var standingMetersPerSecond = 1.0
    /// A longer silence between fixes splits a drive, seconds.
    public var maximumGapSeconds = 600.0
    /// A faster jump between fixes is a GPS error and splits a drive, metres per second.
    public var maximumMetersPerSecond = 70.0
    /// Fixes closer together than this are merged into the earlier (a vehicle reporting twice a second adds nothing).
    public var minimumIntervalSeconds = 1.0
    /// The fleet's local time, seconds ahead of UTC, for the slots of the week.
    public var utcOffsetSeconds: Double
    /// A pass's waits count for at most this many seconds (4 minutes); the pass's time loses what is cut. The error
    /// judged is relative and absolute, whose best estimate is a median, not a mean: the rare very long wait (a
    /// bus held at a stop) would otherwise pull every later estimate up for the many drives that do not meet it.
    /// Chosen by leaving one bus drive out at a time (10.3% median against 10.8% uncapped; 3–5 minutes within 0.2 points).
    public var maximumWaitSeconds = 240.0

    /// A learner for a fleet in a zone `utcOffsetSeconds` ahead of UTC.
    public init(utcOffsetSeconds: Double = 0) {
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// The rows learned from `fixes`, one vehicle's positions in time order, merged per piece and slot.
    public func observations(of fixes: [Fix]) -> [PieceObservation] {
        var table = RoadTimes()
        learn(fixes, into: &table)
        return table.rows
    }

    /// Learns `fixes` (one vehicle's positions in time order) into `table`.
    public func learn(_ fixes: [Fix], into table: inout RoadTimes) {
        var path: [PathPoint] = []
        forEachDrive(in: fixes, path: &path) { drive in
            cut(drive) { piece, slot, tally in table.add(tally, on: piece, in: slot) }
        }
    }

    /// The passes `fixes` (one vehicle's positions in time order) make, in driving order, each with the slot it began
    /// in: what ``observations(of:)`` merges per piece and slot, without building a table.
    public func passes(of fixes: [Fix]) -> [PieceObservation] {
        var result: [PieceObservation] = []
        var path: [PathPoint] = []
        forEachDrive(in: fixes, path: &path) { drive in
            cut(drive) { piece, slot, tally in result.append(PieceObservation(piece: piece, slot: slot, tally: tally)) }
        }
        return result
    }

    /// The passes of `passes(of: [start, standing, end])` (`standing` left out when nil), handed to `pass` in driving
    /// order without building an array: ``LiveDrive`` cuts every location update this way. `startToEndMeters` is
    /// `Geodesy.distance(start.position, end.position)`, which the caller measured (the path's length when there is
    /// no standing fix).
    func passes(from start: Fix, through standing: Fix?, to end: Fix, startToEndMeters: Double,
                _ pass: (PieceObservation) -> Void) {
        func cutDrive(_ drive: ShortPath) {
            cut(drive) { piece, slot, tally in pass(PieceObservation(piece: piece, slot: slot, tally: tally)) }
        }
        var path = ShortPath()
        extend(&path, with: start, ending: cutDrive)
        if let standing {
            extend(&path, with: standing, ending: cutDrive)
            extend(&path, with: end, ending: cutDrive)
        } else {
            extend(&path, with: end, metersFromLast: startToEndMeters, ending: cutDrive)
        }
        if path.count >= 2 { cutDrive(path) }
    }

    /// Hands each drive in `fixes` to `drive`, gathered in `path`: the positions split where the vehicle was silent
    /// too long or jumped too fast.
    private func forEachDrive<Path: DrivePath>(in fixes: [Fix], path: inout Path, _ drive: (Path) -> Void) {
        for fix in fixes { extend(&path, with: fix, ending: drive) }
        if path.count >= 2 { drive(path) }
    }

    /// Adds `fix` to the drive gathered in `path`, unless it came too soon after the last (it adds nothing then). After
    /// too long a silence or too fast a jump, hands the drive to `ended` instead (when it has two fixes or more) and
    /// starts the next one at `fix`. `metersFromLast`, when given, is the distance from the last fix gathered to `fix`
    /// (`Geodesy.distance` of their positions), already measured.
    private func extend<Path: DrivePath>(_ path: inout Path, with fix: Fix, metersFromLast: Double? = nil,
                                         ending ended: (Path) -> Void) {
        guard path.count > 0 else {
            path.append(PathPoint(fix: fix, meters: 0))
            return
        }
        let last = path[path.count - 1]
        let elapsed = fix.time - last.fix.time
        if elapsed < minimumIntervalSeconds && elapsed >= 0 { return }
        let silent = elapsed < 0 || elapsed > maximumGapSeconds
        let meters = silent ? 0 : metersFromLast ?? Geodesy.distance(last.fix.position, fix.position)
        if silent || meters / elapsed > maximumMetersPerSecond {
            if path.count >= 2 { ended(path) }
            path.clear()
            path.append(PathPoint(fix: fix, meters: 0))
            return
        }
        path.append(PathPoint(fix: fix, meters: last.meters + meters))
    }

    /// One drive's passes, in driving order, each (its waits capped) handed to `pass` with its piece and the slot it
    /// began in.
    private func cut<Path: DrivePath>(_ path: Path, _ pass: (RoadPiece, WeekSlot, PieceTally) -> Void) {
        let count = path.count
        guard count >= 2 else { return }
        // The path is the fixes joined by straight segments; it is not built as a `Route`, whose segment frames the
        // cut never reads (a live drive cuts two or three fixes at a time, on every location update).
        let total = path[count - 1].meters
        guard total >= stepMeters else { return }
        // The last fix at or before `meters` along the path (`meters` within it), and the next one.
        func bracket(_ meters: Double) -> (low: Int, high: Int) {
            var low = 0, high = count - 1
            while high - low > 1 {
                let middle = (low + high) / 2
                if path[middle].meters <= meters { low = middle } else { high = middle }
            }
            return (low, high)
        }
        // The segment holding the point `meters` along the path and the fraction within it (as `Route` finds it).
        func location(atMeters meters: Double) -> (segmentIndex: Int, fraction: Double) {
            if meters <= 0 { return (0, 0) }
            if meters >= total { return (count - 2, 1) }
            let low = bracket(meters).low
            let length = path[low + 1].meters - path[low].meters
            return (low, length > 0 ? (meters - path[low].meters) / length : 0)
        }
        // Time at `meters` along the path: at a run of fixes that did not move, the time the vehicle left.
        func time(atMeters meters: Double) -> Double {
            let (low, high) = bracket(meters)
            let length = path[high].meters - path[low].meters
            guard length > 0 else { return path[high].fix.time }
            let fraction = min(1, max(0, (meters - path[low].meters) / length))
            return path[low].fix.time + fraction * (path[high].fix.time - path[low].fix.time)
        }
        var waits = Waits()
        var wait = waits.next(in: path, standingMetersPerSecond: standingMetersPerSecond)

        // The pass being summed: its piece, the slot it began in, and its tally so far.
        var passPiece: RoadPiece? = nil
        var passSlot = WeekSlot(index: 0)
        var passTally = PieceTally()
        var start = 0.0
        var startTime = time(atMeters: 0)
        // The heading of the segment the last step's middle fell on (steps are shorter than most segments), and the
        // row of squares it fell in.
        var headingSegment = -1
        var heading: UInt8 = 0
        var row = RoadPiece.Row()
        while start < total - 1e-6 {
            let end = min(start + stepMeters, total)
            let endTime = time(atMeters: end)
            let middle = location(atMeters: (start + end) / 2)
            let segment = middle.segmentIndex
            let from = path[segment].fix.position, to = path[segment + 1].fix.position
            if segment != headingSegment {
                headingSegment = segment
                heading = RoadPiece.heading(ofBearing: Geodesy.initialBearing(from, to))
            }
            let piece = RoadPiece(at: Geodesy.interpolate(from, to, fraction: middle.fraction), heading: heading, row: &row)
            if passPiece != piece {
                if let done = passPiece { pass(done, passSlot, capped(passTally)) }
                passPiece = piece
                passSlot = WeekSlot(epochSeconds: startTime, utcOffsetSeconds: utcOffsetSeconds)
                passTally = PieceTally(passes: 1)
            }
            passTally.seconds += endTime - startTime
            passTally.meters += end - start
            // A wait belongs to the pass on whose step it began (a wait at the path's very end to the last pass).
            while let found = wait, found.meters < end || end >= total {
                passTally.waits = 1
                passTally.waitSeconds += found.seconds
                wait = waits.next(in: path, standingMetersPerSecond: standingMetersPerSecond)
            }
            start = end
            startTime = endTime
        }
        if let done = passPiece { pass(done, passSlot, capped(passTally)) }
    }

    /// A drive's waits, found in order as the cut reaches them: runs of intervals averaging under the standing speed,
    /// each with where along the path it began and how long it lasted.
    private struct Waits {
        /// The next interval to read: the one ending at this fix.
        private var index = 1

        /// The next wait along `path`, nil after the last.
        mutating func next(in path: some DrivePath, standingMetersPerSecond: Double) -> (meters: Double, seconds: Double)? {
            while index < path.count {
                var seconds = 0.0
                let start = index
                while index < path.count {
                    let elapsed = path[index].fix.time - path[index - 1].fix.time
                    let moved = path[index].meters - path[index - 1].meters
                    guard moved < standingMetersPerSecond * elapsed else { break }
                    seconds += elapsed
                    index += 1
                }
                index = max(index, start + 1)
                if seconds > 0 { return (path[start - 1].meters, seconds) }
            }
            return nil
        }
    }

    /// A pass with its waits cut to ``maximumWaitSeconds``, its time by as much (but never below crossing its metres
    /// at ``maximumMetersPerSecond``: a wait that crept along may have left part of its time on the next pieces).
    func capped(_ pass: PieceTally) -> PieceTally {
        guard pass.waitSeconds > maximumWaitSeconds else { return pass }
        var result = pass
        result.waitSeconds = maximumWaitSeconds
        result.seconds = max(pass.seconds - (pass.waitSeconds - maximumWaitSeconds), pass.meters / maximumMetersPerSecond)
        return result
    }
}
