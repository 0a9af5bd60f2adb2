import FoundationEssentials
import KCAuthCore

/// HTTP for the commands that talk to a profile's provider (issue 6). Every such command gets
/// the profile's private CA from here, so `logout`, `whoami --userinfo`, `refresh` and `doctor`
/// trust what `login --ca-file` trusted without a flag of their own. Proxies come from the
/// environment (libcurl reads `https_proxy`, `no_proxy`, …); there is no way to turn TLS
/// verification off.
extension KCAuthContext {
    /// `$KCAUTH_CA_FILE`, else the profile's `ca_file`; nil: the system's trust store.
    public func caFile(for profile: String) throws -> String? {
        if let env = environment["KCAUTH_CA_FILE"], !env.isEmpty { return Self.absolute(env) }
        let settings = self.settings
        return try ProfileSettings(settings.load(), profile: profile, path: settings.path).caFile
    }

    public func http(for profile: String) throws -> OAuthHTTP {
        http(caFile: try caFile(for: profile))
    }

    /// libcurl resolves a relative CA path against the working directory anyway; making it
    /// absolute only keeps messages unambiguous.
    public static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        let cwd = FileManager.default.currentDirectoryPath
        return cwd.hasPrefix("/") ? cwd + "/" + path : path
    }
}
