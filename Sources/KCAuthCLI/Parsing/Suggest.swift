/// "Did you mean …?" for mistyped commands and options: the closest candidate by edit distance,
/// if it is close enough to be a plausible typo.
enum Suggest {
    /// Case does not count (`TOKEN` is `token`), but a word that differs only in case is still
    /// only suggested, never run.
    static func closest(to word: String, in candidates: [String]) -> String? {
        let limit = max(1, word.count / 3)
        var best: (String, Int)?
        for c in candidates {
            let d = distance(word.lowercased(), c.lowercased())
            if d <= limit, d < (best?.1 ?? Int.max) { best = (c, d) }
        }
        if best == nil, let prefixed = candidates.first(where: { $0.lowercased().hasPrefix(word.lowercased()) && word.count >= 2 }) { return prefixed }
        return best?.0
    }

    /// Edit distance where a swap of two neighbours counts as one edit (optimal string
    /// alignment), because `tokne` for `token` is the commonest typo of all.
    static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { d[i][0] = i }
        for j in 0...y.count { d[0][j] = j }
        for i in 1...x.count {
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[x.count][y.count]
    }
}
