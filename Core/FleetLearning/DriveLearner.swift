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
        for drive in drives(in: fixes) { learnDrive(drive, into: &table) }
        return table.rows
    }

    /// Learns `fixes` (one vehicle's positions in time order) into `table`.
    public func learn(_ fixes: [Fix], into table: inout RoadTimes) {
        for drive in drives(in: fixes) { learnDrive(drive, into: &table) }
    }

    /// The passes `fixes` (one vehicle's positions in time order) make, in driving order, each with the slot it began
    /// in: what ``observations(of:)`` merges per piece and slot, without building a table (a few fixes at a time, as
    /// ``LiveDrive`` cuts them).
    public func passes(of fixes: [Fix]) -> [PieceObservation] {
        var result: [PieceObservation] = []
        for drive in drives(in: fixes) {
            cut(drive) { piece, slot, tally in result.append(PieceObservation(piece: piece, slot: slot, tally: tally)) }
        }
        return result
    }

    /// The positions split where the vehicle was silent too long or jumped too fast.
    func drives(in fixes: [Fix]) -> [[Fix]] {
        var result: [[Fix]] = []
        var current: [Fix] = []
        for fix in fixes {
            guard let last = current.last else { current = [fix]; continue }
            let elapsed = fix.time - last.time
            if elapsed < minimumIntervalSeconds && elapsed >= 0 { continue }
            if elapsed < 0 || elapsed > maximumGapSeconds
                || Geodesy.distance(last.position, fix.position) / elapsed > maximumMetersPerSecond {
                if current.count >= 2 { result.append(current) }
                current = [fix]
                continue
            }
            current.append(fix)
        }
        if current.count >= 2 { result.append(current) }
        return result
    }

    /// One drive's steps into `table`.
    private func learnDrive(_ fixes: [Fix], into table: inout RoadTimes) {
        cut(fixes) { piece, slot, tally in table.add(tally, on: piece, in: slot) }
    }

    /// One drive's passes, in driving order, each (its waits capped) handed to `pass` with its piece and the slot it
    /// began in.
    private func cut(_ fixes: [Fix], _ pass: (RoadPiece, WeekSlot, PieceTally) -> Void) {
        guard fixes.count >= 2 else { return }
        // Distance along the path from the first fix to each fix, metres. The path is the fixes joined by straight
        // segments; it is not built as a `Route`, whose segment frames the cut never reads (a live drive cuts two or
        // three fixes at a time, on every location update).
        var cumulative = [Double](repeating: 0, count: fixes.count)
        for index in 1..<fixes.count {
            cumulative[index] = cumulative[index - 1] + Geodesy.distance(fixes[index - 1].position, fixes[index].position)
        }
        let total = cumulative[cumulative.count - 1]
        guard total >= stepMeters else { return }
        // The last fix at or before `meters` along the path (`meters` within it), and the next one.
        func bracket(_ meters: Double) -> (low: Int, high: Int) {
            var low = 0, high = cumulative.count - 1
            while high - low > 1 {
                let middle = (low + high) / 2
                if cumulative[middle] <= meters { low = middle } else { high = middle }
            }
            return (low, high)
        }
        // The segment holding the point `meters` along the path and the fraction within it (as `Route` finds it).
        func location(atMeters meters: Double) -> (segmentIndex: Int, fraction: Double) {
            if meters <= 0 { return (0, 0) }
            if meters >= total { return (fixes.count - 2, 1) }
            let low = bracket(meters).low
            let length = cumulative[low + 1] - cumulative[low]
            return (low, length > 0 ? (meters - cumulative[low]) / length : 0)
        }
        // Time at `meters` along the path: at a run of fixes that did not move, the time the vehicle left.
        func time(atMeters meters: Double) -> Double {
            let (low, high) = bracket(meters)
            let length = cumulative[high] - cumulative[low]
            guard length > 0 else { return fixes[high].time }
            let fraction = min(1, max(0, (meters - cumulative[low]) / length))
            return fixes[low].time + fraction * (fixes[high].time - fixes[low].time)
        }
        // Waits: runs of intervals averaging under the standing speed, by where they happened along the path.
        var waits: [(meters: Double, seconds: Double)] = []
        var index = 1
        while index < fixes.count {
            var seconds = 0.0
            let start = index
            while index < fixes.count {
                let elapsed = fixes[index].time - fixes[index - 1].time
                let moved = cumulative[index] - cumulative[index - 1]
                guard moved < standingMetersPerSecond * elapsed else { break }
                seconds += elapsed
                index += 1
            }
            if seconds > 0 { waits.append((cumulative[start - 1], seconds)) }
            index = max(index, start + 1)
        }

        // The pass being summed: its piece, the slot it began in, and its tally so far.
        var passPiece: RoadPiece? = nil
        var passSlot = WeekSlot(index: 0)
        var passTally = PieceTally()
        var nextWait = 0
        var start = 0.0
        var startTime = time(atMeters: 0)
        // The bearing of the segment the last step's middle fell on (steps are shorter than most segments).
        var bearingSegment = -1
        var bearing = 0.0
        while start < total - 1e-6 {
            let end = min(start + stepMeters, total)
            let endTime = time(atMeters: end)
            let middle = location(atMeters: (start + end) / 2)
            let segment = middle.segmentIndex
            if segment != bearingSegment {
                bearingSegment = segment
                bearing = Geodesy.initialBearing(fixes[segment].position, fixes[segment + 1].position)
            }
            let point = Geodesy.interpolate(fixes[segment].position, fixes[segment + 1].position, fraction: middle.fraction)
            let piece = RoadPiece(at: point, bearing: bearing)
            if passPiece != piece {
                if let done = passPiece { pass(done, passSlot, capped(passTally)) }
                passPiece = piece
                passSlot = WeekSlot(epochSeconds: startTime, utcOffsetSeconds: utcOffsetSeconds)
                passTally = PieceTally(passes: 1)
            }
            passTally.seconds += endTime - startTime
            passTally.meters += end - start
            // A wait belongs to the pass on whose step it began (a wait at the path's very end to the last pass).
            while nextWait < waits.count, waits[nextWait].meters < end || end >= total {
                passTally.waits = 1
                passTally.waitSeconds += waits[nextWait].seconds
                nextWait += 1
            }
            start = end
            startTime = endTime
        }
        if let done = passPiece { pass(done, passSlot, capped(passTally)) }
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
