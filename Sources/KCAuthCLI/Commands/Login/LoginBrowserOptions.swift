/// `login`'s options for starting the browser: `--browser-command` (`BrowserCommand`).
enum LoginBrowserOptions {
    static let browserCommand = OptionSpec(
        "browser-command", value: "CMD",
        help: "Start the browser with this command and its arguments, split like a shell would; %s is the URL (appended if absent); remembered for the profile, '' forgets")
}
