/// "Did you mean …?": the known word nearest to a mistyped one.
public enum Suggestion {
    /// The candidate `word` most likely meant: one it is a prefix of, else the nearest by edit
    /// distance when close enough (at most one edit per three letters, at least one allowed).
    public static func nearest(to word: String, among candidates: [String]) -> String? {
        guard !word.isEmpty else { return nil }
        let lowered = word.lowercased()
        if let prefixed = candidates.filter({ $0.lowercased().hasPrefix(lowered) }).min(by: { $0.count < $1.count }) {
            return prefixed
        }
        let limit = max(1, word.count / 3)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(lowered, candidate.lowercased())
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// The edit distance between two words: insertions, deletions, substitutions and swaps of
    /// two neighbouring letters each count one (optimal string alignment distance).
    public static func editDistance(_ first: String, _ second: String) -> Int {
        let a = Array(first), b = Array(second)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let substitution = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
