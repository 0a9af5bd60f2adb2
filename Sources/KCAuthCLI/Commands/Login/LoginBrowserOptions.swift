import KCAuthContract

/// `login`'s option for starting the browser, from its catalogue row.
enum LoginBrowserOptions {
    static let browserCommand = OptionSpec(SettingsCatalogue.browserCommand)
}
