/// A JSON object: members in the order they were added or parsed, with lookup by key.
///
/// Keys are unique. Setting an existing key replaces its value in place; setting `nil` removes it.
/// Equality ignores member order, as JSON's does.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// One member: a key and its value.
    public struct Member: Sendable, Hashable {
        /// The member's name.
        public var key: String
        /// The member's value.
        public var value: JSON

        /// A member.
        public init(key: String, value: JSON) {
            self.key = key
            self.value = value
        }
    }

    /// Above this many members, lookups go through a dictionary instead of a linear scan.
    private static let indexThreshold = 12

    /// The members in order.
    public private(set) var members: [Member]
    /// Key → position in `members`, kept only for large objects.
    private var index: [String: Int]?

    /// An empty object.
    public init() {
        members = []
        index = nil
    }

    /// An object from key–value pairs in order; a repeated key keeps the last value.
    public init(_ pairs: some Sequence<(String, JSON)>) {
        self.init()
        for (key, value) in pairs { self[key] = value }
    }

    /// An object with the members in the order written; a repeated key keeps the last value.
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self.init(elements)
    }

    // MARK: Collection

    /// The first member's position (0).
    public var startIndex: Int { members.startIndex }
    /// One past the last member's position.
    public var endIndex: Int { members.endIndex }
    /// The member at a position.
    public subscript(position: Int) -> Member { members[position] }

    // MARK: Lookup

    /// The keys in order.
    public var keys: [String] { members.map(\.key) }

    /// The position of the member named `key`, if any.
    public func position(of key: String) -> Int? {
        if let index { return index[key] }
        return members.firstIndex { $0.key == key }
    }

    /// Whether a member named `key` exists.
    public func contains(_ key: String) -> Bool { position(of: key) != nil }

    /// The value of the member named `key`; setting replaces in place, appends, or (with nil) removes.
    public subscript(key: String) -> JSON? {
        get { position(of: key).map { members[$0].value } }
        set {
            if let position = position(of: key) {
                if let newValue {
                    members[position].value = newValue
                } else {
                    members.remove(at: position)
                    rebuildIndex()
                }
            } else if let newValue {
                appendNew(key: key, value: newValue)
            }
        }
    }

    /// Adds a member whose key must not exist yet; returns false (and changes nothing) when it does.
    @discardableResult
    public mutating func insertNew(key: String, value: JSON) -> Bool {
        if contains(key) { return false }
        appendNew(key: key, value: value)
        return true
    }

    /// Appends without checking for an existing key: the caller guarantees uniqueness (a message's
    /// writer, whose field names are distinct).
    public mutating func appendNew(key: String, value: JSON) {
        members.append(Member(key: key, value: value))
        if index != nil {
            index![key] = members.count - 1
        } else if members.count > Self.indexThreshold {
            rebuildIndex()
        }
    }

    private mutating func rebuildIndex() {
        guard members.count > Self.indexThreshold else {
            index = nil
            return
        }
        var built = [String: Int](minimumCapacity: members.count)
        for (position, member) in members.enumerated() { built[member.key] = position }
        index = built
    }

    // MARK: Equality (order-insensitive)

    /// Same keys with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        for member in lhs.members {
            guard let other = rhs[member.key], other == member.value else { return false }
        }
        return true
    }

    /// Hashes members independently of their order, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        var combined = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member)
            combined = combined &+ memberHasher.finalize()
        }
        hasher.combine(combined)
    }
}
