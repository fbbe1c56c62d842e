/// The order of record IDs in `list`: by their UTF-8 bytes, as SQLite's BINARY collation orders them,
/// so that every store pages through IDs the same way.
enum IDOrder {
    /// Whether `a` comes before `b`.
    static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
