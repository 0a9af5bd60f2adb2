/// The frame of every landing page (`LandingPage`): self-contained HTML (no scripts, no
/// external resources), readable in light and dark mode. Renderers fill in what happened and
/// what to do next.
///
/// Checked in a real headless Chromium with JavaScript off (Tests/Integration/test_landing_pages.py):
/// the visible text, no request but the page itself, text of at least 14 px, and WCAG AA contrast
/// (4.5:1) in both color schemes.
public enum LandingPageTemplate {
    /// A page with paragraphs of (already escaped) HTML. `tone` is `ok` or `bad`: the color of
    /// the mark and of the card's top edge.
    ///
    /// The Content-Security-Policy makes "self-contained" hold in the browser too: nothing but
    /// the inline style may load. `<link rel="icon" href="data:,">` stops the browser's request
    /// for /favicon.ico, which would reach a port kcauth no longer listens on.
    public static func html(title: String, mark: String, tone: String, heading: String, paragraphs: [String]) -> String {
        let text = paragraphs.map { "<p>\($0)</p>" }.joined(separator: "\n")
        return """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <link rel="icon" href="data:,">
        <title>kcauth – \(title)</title>
        <style>
        body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","DejaVu Sans",sans-serif;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center;background:#f6f7f9;color:#1d2430}
        main{box-sizing:border-box;width:calc(100% - 2rem);max-width:36rem;margin:1rem;padding:2rem 2.25rem 1.5rem;background:#fff;border-radius:12px;border-top:4px solid;box-shadow:0 1px 4px rgba(0,0,0,.12)}
        .mark{font-size:2.5rem;line-height:1}.mark.ok{color:#1a7f37}.mark.bad{color:#c62828}
        main.ok{border-top-color:#1a7f37}main.bad{border-top-color:#c62828}
        h1{font-size:1.4rem;line-height:1.3;margin:.5rem 0 1rem}p{margin:0 0 .75rem}
        .reason{font-weight:600}
        code{font:0.95em ui-monospace,"DejaVu Sans Mono",monospace;white-space:nowrap;background:rgba(127,127,127,.15);padding:.1em .3em;border-radius:4px}
        footer{margin-top:1.5rem;font-size:.875rem;color:#57606a}
        @media (max-width:30rem){main{padding:1.5rem 1.25rem 1rem}}
        @media (prefers-color-scheme: dark){body{background:#14171c;color:#e6e8eb}main{background:#1f242c;box-shadow:none}.mark.ok{color:#4cc264}.mark.bad{color:#ff6b6b}main.ok{border-top-color:#4cc264}main.bad{border-top-color:#ff6b6b}footer{color:#9aa4b2}}
        </style></head>
        <body><main class="\(tone)"><div class="mark \(tone)" aria-hidden="true">\(mark)</div>
        <h1>\(heading)</h1>
        \(text)
        <footer>kcauth</footer></main></body></html>

        """
    }

    /// An error message as a sentence on a page: capital first letter, closing punctuation
    /// (the CLI prints the same messages lower-case after `error: `).
    public static func sentence(_ message: String) -> String {
        let trimmed = message.trimmingSuffix(while: { $0 == " " || $0 == "\n" })
        guard let first = trimmed.first else { return trimmed }
        let capitalized = first.uppercased() + trimmed.dropFirst()
        return ".!?".contains(capitalized.last!) ? capitalized : capitalized + "."
    }

    public static func escape(_ s: String) -> String {
        var out = ""
        for ch in s {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(ch)
            }
        }
        return out
    }
}

private extension String {
    func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return String(self[..<end])
    }
}
