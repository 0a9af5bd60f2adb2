/// "Did you mean …?" for mistyped commands and options: the closest candidate by edit distance,
/// if it is close enough to be a plausible typo.
enum Suggest {
    static func closest(to word: String, in candidates: [String]) -> String? {
        let limit = max(1, word.count / 3)
        var best: (String, Int)?
        for c in candidates {
            let d = distance(word, c)
            if d <= limit, d < (best?.1 ?? Int.max) { best = (c, d) }
        }
        if best == nil, let prefixed = candidates.first(where: { $0.hasPrefix(word) && word.count >= 2 }) { return prefixed }
        return best?.0
    }

    /// Levenshtein distance over characters.
    static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var previous = Array(0...y.count)
        for i in 1...x.count {
            var current = [i] + Array(repeating: 0, count: y.count)
            for j in 1...y.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[y.count]
    }
}
