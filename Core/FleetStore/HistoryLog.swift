/// A position history held in memory, in time order: what the stores that keep their records in
/// memory (memory, file) keep their history in.
///
/// Points usually arrive in time order, so an append is an append; a late point is inserted in its
/// place. A read finds its start by binary search and scans from there, so a page of one vehicle
/// among many costs a scan of the others' points in the span.
public struct HistoryLog: Sendable, Hashable {
    /// Every point, ordered by time, then sequence.
    public private(set) var points: [HistoryPoint] = []
    /// The highest sequence assigned or loaded so far.
    public private(set) var lastSequence: Int64 = 0

    public init() {}

    /// Adds `point` with the next sequence; returns it as kept.
    @discardableResult
    public mutating func append(_ point: HistoryPoint) -> HistoryPoint {
        var kept = point
        kept.sequence = lastSequence + 1
        load(kept)
        return kept
    }

    /// Adds `point` with the sequence it carries (read back from a file).
    public mutating func load(_ point: HistoryPoint) {
        lastSequence = max(lastSequence, point.sequence)
        if let last = points.last, !point.isAfter(last.cursor) {
            points.insert(point, at: index(after: point.cursor, orAt: true))
        } else {
            points.append(point)
        }
    }

    /// Up to `limit` points `query` matches after `cursor`, in order.
    public func page(_ query: HistoryQuery, after cursor: HistoryCursor?, limit: Int) -> [HistoryPoint] {
        guard limit > 0 else { return [] }
        let spanStart = HistoryCursor(time: query.from, sequence: .min)
        var i = if let cursor, cursor >= spanStart { index(after: cursor, orAt: false) } else { index(after: spanStart, orAt: true) }
        var found: [HistoryPoint] = []
        while i < points.count, points[i].time < query.to, found.count < limit {
            if points[i].matches(query) { found.append(points[i]) }
            i += 1
        }
        return found
    }

    /// Removes up to `limit` of the oldest points older than `time`; returns how many.
    @discardableResult
    public mutating func prune(before time: Int64, limit: Int) -> Int {
        let old = index(after: HistoryCursor(time: time, sequence: .min), orAt: true)
        let removed = min(old, max(0, limit))
        points.removeFirst(removed)
        return removed
    }

    /// The index of the first point after `cursor` (or at it, when `orAt`).
    private func index(after cursor: HistoryCursor, orAt: Bool) -> Int {
        var low = 0, high = points.count
        while low < high {
            let mid = (low + high) / 2
            let p = (points[mid].time, points[mid].sequence)
            let c = (cursor.time, cursor.sequence)
            if p < c || (!orAt && p == c) { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

extension HistoryCursor: Comparable {
    public static func < (a: HistoryCursor, b: HistoryCursor) -> Bool {
        (a.time, a.sequence) < (b.time, b.sequence)
    }
}
