import FleetGeo

/// A recorded drive: the positions one vehicle reported on one trip, in time order. Replayed as a trip whose
/// destination is its last position, it tells how good an ETA was at every point on the way.
public struct Drive: Sendable, Hashable {
    /// The trip's identifier in the trace file.
    public var id: String
    /// The fixes, in increasing time.
    public var fixes: [Fix]

    /// A drive from fixes already in time order.
    public init(id: String, fixes: [Fix]) {
        self.id = id
        self.fixes = fixes
    }

    /// The path driven, as the positions reported: the route a navigation app following this drive knew.
    public var path: [GeoPoint] { fixes.map(\.position) }

    /// Seconds from the first fix to the last.
    public var durationSeconds: Double {
        guard let first = fixes.first, let last = fixes.last else { return 0 }
        return last.time - first.time
    }

    /// Length of the path, metres.
    public var pathMeters: Double {
        zip(fixes, fixes.dropFirst()).reduce(0) { $0 + Geodesy.distance($1.0.position, $1.1.position) }
    }

    /// Average speed over the whole drive, stops included, metres per second (0 for a drive of one instant).
    /// Tells car drives from walks in a mixed set of traces.
    public var averageMetersPerSecond: Double {
        durationSeconds > 0 ? pathMeters / durationSeconds : 0
    }

    /// The drive without GPS jumps: a fix that would need more than `maximumMetersPerSecond` from the last fix
    /// kept is dropped, and so is one at the same time as the last fix kept; so is a spike, a fix that lies more
    /// than `spikeMeters` off the way from the last fix kept to the next fix and makes that way over three times
    /// longer (a car does not drive 300 m out and back in 4 s). A navigation route never holds those jumps, and
    /// each would add twice its length to the path.
    public func withoutJumps(maximumMetersPerSecond: Double = SpeedModel.standard.maximumPlausibleMetersPerSecond,
                             spikeMeters: Double = 50) -> Drive {
        var kept: [Fix] = []
        kept.reserveCapacity(fixes.count)
        for (index, fix) in fixes.enumerated() {
            if let last = kept.last {
                let elapsed = fix.time - last.time
                let out = Geodesy.distance(last.position, fix.position)
                guard elapsed > 0, out / elapsed <= maximumMetersPerSecond else { continue }
                if index + 1 < fixes.count {
                    let next = fixes[index + 1].position
                    let back = Geodesy.distance(fix.position, next)
                    let direct = Geodesy.distance(last.position, next)
                    if out + back - direct > 2 * spikeMeters && out + back > 3 * direct { continue }
                }
            }
            kept.append(fix)
        }
        return Drive(id: id, fixes: kept)
    }

    /// Below this average speed between two fixes (1 m/s) the vehicle counts as standing: GPS wander of a parked
    /// car stays under it at a fix every few seconds, and walking pace in a queue is above it.
    public static let standingMetersPerSecond = 1.0

    /// Whether the vehicle averaged under `standingMetersPerSecond` from fix `from` to the later fix `to`: it stood
    /// (at a stop, a light, in a queue) rather than drove.
    public static func stands(from: Fix, to: Fix, standingMetersPerSecond: Double = Drive.standingMetersPerSecond) -> Bool {
        let elapsed = to.time - from.time
        return elapsed > 0 && Geodesy.distance(from.position, to.position) / elapsed < standingMetersPerSecond
    }

    /// The drive with its waits cut out: every interval between two fixes in which the vehicle averaged less than
    /// `standingMetersPerSecond` (a bus at a stop, a car at a red light, a standstill in a queue) is removed from the
    /// clock, with the fix that ends it. What is left is the time spent moving; replaying it shows how much of the
    /// ETA error the waits cause. At one fix every 20–30 s an interval that mixes a short wait with driving counts
    /// as moving, so this removes most waits, not all.
    public func withoutWaits(standingMetersPerSecond: Double = Drive.standingMetersPerSecond) -> Drive {
        guard var previous = fixes.first else { return self }
        var kept = [previous]
        var removed = 0.0
        for (offset, fix) in fixes.enumerated().dropFirst() {
            let elapsed = fix.time - previous.time
            let stands = Drive.stands(from: previous, to: fix, standingMetersPerSecond: standingMetersPerSecond)
            let isLast = offset == fixes.count - 1
            if stands && !isLast {
                removed += elapsed
            } else {
                if stands { removed += elapsed }
                kept.append(Fix(time: fix.time - removed, position: fix.position))
            }
            previous = fix
        }
        if kept.count >= 2, kept[kept.count - 1].time <= kept[kept.count - 2].time {
            kept[kept.count - 1].time = kept[kept.count - 2].time
        }
        return Drive(id: id, fixes: kept)
    }
}
