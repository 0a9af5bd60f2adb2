public enum LoginHint {
    /// The command that fixes a "login required" state, spelled for copy and paste.
    public static func command(profile: String) -> String {
        profile == ProfileName.defaultName ? "run `kcauth login`" : "run `kcauth login --profile \(profile)`"
    }
}
