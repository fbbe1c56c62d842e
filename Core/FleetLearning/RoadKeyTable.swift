/// A key of a ``RoadKeyTable``: a piece or block of road, folded into one word to hash.
protocol RoadTableKey: Equatable {
    /// The key in one word. Two keys may share a word (they then share a probe sequence, costing time, never an
    /// answer); the keys of real places never do.
    var tableWord: UInt64 { get }
}

extension RoadPiece: RoadTableKey {
    /// The square's two indexes, the heading's three bits laid over the north index's top bits (only a north index
    /// beyond ±2²⁸ squares, twice the Earth, would share them).
    var tableWord: UInt64 {
        (UInt64(UInt32(bitPattern: east)) << 32 | UInt64(UInt32(bitPattern: north))) ^ UInt64(heading) << 29
    }
}

extension LiveRoadSpeeds.Block: RoadTableKey {
    var tableWord: UInt64 { UInt64(UInt32(bitPattern: east)) << 32 | UInt64(UInt32(bitPattern: north)) }
}

/// The multiplier of ``RoadKeyTable``'s hash: odd, drawn once per process, so that nobody outside can choose
/// positions whose pieces all land in one bucket.
private let roadKeyMultiplier = UInt64.random(in: 0 ... .max) | 1

/// A hash table for the live speeds' per-piece and per-block lookups, which a location update makes by the dozen:
/// open addressing with linear probing, the key's word multiplied by a per-process odd number and its top bits taken
/// (multiply-shift), several times cheaper than `Dictionary`'s SipHash of the same word. At most half full.
struct RoadKeyTable<Key: RoadTableKey, Value> {
    private var keys: [Key?]
    private var values: [Value?]
    /// 64 minus log₂ of the capacity: a key's home slot is the top bits of its hashed word.
    private var shift: UInt64
    /// The process's multiplier, kept here so that a lookup does not check that the global is set.
    private let multiplier = roadKeyMultiplier
    /// How many keys the table holds.
    private(set) var count = 0

    /// An empty table.
    init() {
        keys = Array(repeating: nil, count: 8)
        values = Array(repeating: nil, count: 8)
        shift = 64 - 3
    }

    private var mask: Int { keys.count - 1 }

    private func home(_ key: Key) -> Int {
        Int(truncatingIfNeeded: (key.tableWord &* multiplier) >> shift)
    }

    /// The slot holding `key`, or the empty slot where it would go.
    private func slot(of key: Key) -> (index: Int, found: Bool) {
        var index = home(key)
        while let present = keys[index] {
            if present == key { return (index, true) }
            index = (index + 1) & mask
        }
        return (index, false)
    }

    /// The value for `key`, nil when absent; setting nil removes the key.
    subscript(key: Key) -> Value? {
        get {
            let slot = slot(of: key)
            return slot.found ? values[slot.index] : nil
        }
        set {
            if let newValue {
                update(key, default: newValue) { $0 = newValue }
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Runs `body` on the value for `key` in place (no copy of it is made), first adding `make()` when absent.
    @discardableResult
    mutating func update<Result>(_ key: Key, default make: @autoclosure () -> Value,
                                 _ body: (inout Value) -> Result) -> Result {
        var slot = slot(of: key)
        if !slot.found {
            if (count + 1) * 2 > keys.count {
                grow()
                slot = self.slot(of: key)
            }
            keys[slot.index] = key
            values[slot.index] = make()
            count += 1
        }
        return body(&values[slot.index]!)
    }

    /// Runs `body` on the value for `key` in place when present; nil when absent.
    @discardableResult
    mutating func updateIfPresent<Result>(_ key: Key, _ body: (inout Value) -> Result) -> Result? {
        let slot = slot(of: key)
        guard slot.found else { return nil }
        return body(&values[slot.index]!)
    }

    /// Removes `key`, moving back the keys probed past it so that every key stays reachable from its home slot.
    @discardableResult
    mutating func removeValue(forKey key: Key) -> Value? {
        let slot = slot(of: key)
        guard slot.found else { return nil }
        let removed = values[slot.index]
        var hole = slot.index
        keys[hole] = nil
        values[hole] = nil
        count -= 1
        var next = (hole + 1) & mask
        while let moving = keys[next] {
            // The key at `next` may fill the hole when the hole lies between its home and `next` (cyclically).
            if (next - home(moving)) & mask >= (next - hole) & mask {
                keys[hole] = moving
                values[hole] = values[next]
                keys[next] = nil
                values[next] = nil
                hole = next
            }
            next = (next + 1) & mask
        }
        return removed
    }

    /// Every key and its value, in no particular order.
    var entries: some Sequence<(key: Key, value: Value)> {
        zip(keys, values).lazy.compactMap { key, value in key.map { ($0, value!) } }
    }

    /// Twice the capacity, every key placed again.
    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        keys = Array(repeating: nil, count: oldKeys.count * 2)
        values = Array(repeating: nil, count: oldKeys.count * 2)
        shift -= 1
        for (key, value) in zip(oldKeys, oldValues) {
            guard let key else { continue }
            let slot = slot(of: key)
            keys[slot.index] = key
            values[slot.index] = value
        }
    }
}

extension RoadKeyTable: Sendable where Key: Sendable, Value: Sendable {}
