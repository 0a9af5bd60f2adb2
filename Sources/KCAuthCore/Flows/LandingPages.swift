/// The pages the browser shows after the redirect: self-contained HTML (no scripts, no external
/// resources), readable in light and dark mode, saying what happened and what to do next.
public enum LandingPages {
    public static func success(user: String?, profile: String) -> LandingPage {
        let who = user.map { " as <strong>\(escape($0))</strong>" } ?? ""
        return page(status: 200, title: "Signed in", mark: "✓", tone: "ok",
                    heading: "You are signed in\(who)",
                    body: "kcauth stored the session for profile <code>\(escape(profile))</code>. You can close this tab and return to the terminal.")
    }

    public static func failure(_ error: KCAuthError) -> LandingPage {
        page(status: 400, title: "Sign-in failed", mark: "✗", tone: "bad",
             heading: "Sign-in failed",
             body: "\(escape(error.message)).<br>Nothing was stored. Return to the terminal for details, then run <code>kcauth login</code> again.")
    }

    public static let notThisLogin = page(
        status: 400, title: "Not this sign-in", mark: "!", tone: "bad",
        heading: "This response does not belong to the current sign-in",
        body: "kcauth is still waiting for the sign-in it started. Finish that one in the tab kcauth opened, or run <code>kcauth login</code> again.")

    public static let notFound = page(status: 404, title: "Not found", mark: "?", tone: "bad",
                                      heading: "Nothing here", body: "This address only receives kcauth's sign-in response.")

    static func page(status: Int, title: String, mark: String, tone: String, heading: String, body: String) -> LandingPage {
        LandingPage(status: status, html: """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>kcauth – \(title)</title>
        <style>
        body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center;background:#f6f7f9;color:#1d2430}
        main{max-width:34rem;margin:1rem;padding:2rem 2.25rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.12)}
        .mark{font-size:2.5rem;line-height:1}.ok{color:#1a7f37}.bad{color:#c62828}
        h1{font-size:1.4rem;margin:.5rem 0 1rem}code{font:0.95em ui-monospace,monospace;background:rgba(127,127,127,.15);padding:.1em .3em;border-radius:4px}
        @media (prefers-color-scheme: dark){body{background:#14171c;color:#e6e8eb}main{background:#1f242c;box-shadow:none}.ok{color:#4cc264}.bad{color:#ff6b6b}}
        </style></head>
        <body><main><div class="mark \(tone)" aria-hidden="true">\(mark)</div>
        <h1>\(heading)</h1><p>\(body)</p><p><small>kcauth</small></p></main></body></html>

        """)
    }

    static func escape(_ s: String) -> String {
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
