#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import KCAuthCore

/// `TokenCache` in `$XDG_RUNTIME_DIR/kcauth/<profile>.token`: the access token only (never the
/// refresh token), so a valid token is served without a D-Bus round trip to the keyring.
///
/// `$XDG_RUNTIME_DIR` is a per-user tmpfs (0700, removed at logout). The directory is 0700 and
/// every file 0600, written atomically; a file is trusted only if it is a regular file owned by
/// this user with no group or other permissions, in a directory that passes the same test.
public struct RuntimeTokenCache: TokenCache {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// The cache for this environment, or nil when there is no `$XDG_RUNTIME_DIR` (no safe place)
    /// or it is turned off (`KCAUTH_TOKEN_CACHE=off`).
    public static func forEnvironment(_ environment: [String: String]) -> RuntimeTokenCache? {
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"),
              !["0", "off", "no", "false"].contains(environment["KCAUTH_TOKEN_CACHE"]?.lowercased() ?? "")
        else { return nil }
        return RuntimeTokenCache(directory: runtime + "/kcauth")
    }

    public func read(profile: String) -> CachedToken? {
        let path = file(profile)
        guard Self.isPrivate(directory, directory: true), Self.isPrivate(path, directory: false),
              let text = try? AtomicFile.read(path) else { return nil }
        return try? JSONDecoder().decode(CachedToken.self, from: Data(text.utf8))
    }

    public func write(_ token: CachedToken, profile: String) {
        if let existing = read(profile: profile), existing == token { return }
        guard let data = try? JSONEncoder().encode(token) else { return }
        try? AtomicFile.makeDirectory(directory)
        guard Self.isPrivate(directory, directory: true) else { return }
        try? AtomicFile.write(String(decoding: data, as: UTF8.self), to: file(profile))
    }

    public func remove(profile: String) {
        unlink(file(profile))
    }

    private func file(_ profile: String) -> String { directory + "/" + profile + ".token" }

    /// Owned by us, not a symlink, and no permissions for group or others.
    static func isPrivate(_ path: String, directory: Bool) -> Bool {
        var st = stat()
        guard lstat(path, &st) == 0, st.st_uid == getuid(), st.st_mode & 0o077 == 0 else { return false }
        return (st.st_mode & S_IFMT) == (directory ? S_IFDIR : S_IFREG)
    }
}
