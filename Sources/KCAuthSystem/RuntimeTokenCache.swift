#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import KCAuthCore

/// `TokenCache` in `$XDG_RUNTIME_DIR/kcauth/<profile>.token`: the access token only (never the
/// refresh token), so a valid token is served without a D-Bus round trip to the keyring.
///
/// `$XDG_RUNTIME_DIR` is a per-user tmpfs (0700, removed at logout). The directory is 0700 and
/// every file 0600, written atomically, and read with `PrivateFile`'s checks (no symlink, ours,
/// no group or other bits, checked on the open descriptor). Each entry is bound to the session it
/// came from (`CachedToken`, `CacheBinding`). A session deleted behind kcauth's back (for
/// example `secret-tool clear`) is still answered from here until its access token expires or
/// the next `login`/`logout`; `KCAUTH_TOKEN_CACHE=off` turns the cache off.
public struct RuntimeTokenCache: TokenCache {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// The cache for this environment, or nil when there is no `$XDG_RUNTIME_DIR` (no safe place)
    /// or it is turned off (`KCAUTH_TOKEN_CACHE=off`).
    public static func forEnvironment(_ environment: [String: String], paths: Paths) -> RuntimeTokenCache? {
        guard let directory = paths.runtimeDirectory,
              !["0", "off", "no", "false"].contains(environment["KCAUTH_TOKEN_CACHE"]?.lowercased() ?? "")
        else { return nil }
        return RuntimeTokenCache(directory: directory)
    }

    public func read(profile: String) -> CachedToken? {
        guard (try? PrivateFile.checkDirectory(directory, repair: false)) != nil,
              let text = (try? PrivateFile.read(file(profile))) ?? nil else { return nil }
        return try? JSONDecoder().decode(CachedToken.self, from: Data(text.utf8))
    }

    public func write(_ token: CachedToken, profile: String) {
        if let existing = read(profile: profile), existing == token { return }
        guard let data = try? JSONEncoder().encode(token) else { return }
        try? AtomicFile.makeDirectory(directory)
        guard (try? PrivateFile.checkDirectory(directory, repair: true)) != nil else { return }
        try? AtomicFile.write(String(decoding: data, as: UTF8.self), to: file(profile))
    }

    public func remove(profile: String) {
        unlink(file(profile))
    }

    private func file(_ profile: String) -> String { directory + "/" + profile + ".token" }
}
