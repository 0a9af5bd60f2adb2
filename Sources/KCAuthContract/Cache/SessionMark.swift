#if canImport(Glibc)
import Glibc
#endif

/// Which stored session a profile has now, as every process of the user sees it.
///
/// The runtime token cache follows `XDG_RUNTIME_DIR`, which differs between a terminal, cron and
/// `su`; a logout run from one environment cannot reach the cache entries of another. So a
/// cached access token is served only while the profile's mark names the session it came from
/// (`session_id`): the mark lives in the uid-bound ``ContractPaths/sharedDirectory(uid:)``, and a
/// logout or a new sign-in changes it, which retires every cached copy of the old session in
/// every environment at once.
///
/// The file holds `current ID` or `ended ID`. Writers take `flock` on it, so that a process that
/// read the session just before a logout cannot bring the mark back afterwards: `ended ID` is
/// never replaced by `current ID` of the same session. Readers (the front) take no lock: a torn
/// read only fails to match, and then the store decides.
public enum SessionMark {
    public enum State: Sendable, Equatable {
        case current(String)
        case ended(String)
    }

    /// How the front looks a mark up (injected in tests).
    public typealias Lookup = (_ profile: String, _ binding: CachePolicy.Binding) -> State?

    /// One mark per profile and binding (store, issuer, client): a profile name that means
    /// another provider in another environment (its own configuration) is another session
    /// (``SessionFileName``). `directory`: ``ContractPaths/sharedDirectory(uid:home:)``; nil when
    /// there is none.
    public static func file(profile: String, binding: CachePolicy.Binding, directory: String?) -> String? {
        guard let directory else { return nil }
        return directory + "/" + SessionFileName.stem(profile: profile, storage: binding.storage, issuer: binding.issuer,
                                                      clientID: binding.clientID) + SessionFileName.mark
    }

    /// The mark, nil when there is none, it is not private, or it cannot be read.
    public static func read(profile: String, binding: CachePolicy.Binding, directory: String? = ContractPaths.sharedDirectory(),
                            uid: uid_t = geteuid()) -> State? {
        guard let path = file(profile: profile, binding: binding, directory: directory) else { return nil }
        guard case .bytes = ContractFile.checkDirectory(ContractFile.parent(path), rule: .secret, euid: uid, mayBeAbsent: false),
              case .bytes(let bytes) = ContractFile.read(path, rule: .secret, limit: 512, euid: uid) else { return nil }
        return parse(bytes)
    }

    static func parse(_ bytes: [UInt8]) -> State? {
        // Byte prefixes: the text's UTF-8 starts with `current ` or `ended ` (both ASCII, so a
        // prefix of bytes is a prefix of characters unless a combining mark follows the space).
        let current = Array("current ".utf8), ended = Array("ended ".utf8)
        func starts(_ p: [UInt8]) -> Bool {
            guard bytes.count >= p.count else { return false }
            var i = 0
            while i < p.count { if bytes[i] != p[i] { return false }; i += 1 }
            return true
        }
        if starts(current), bytes.count > 8 {
            guard bytes[8] < 0x80 else { return parseCharacters(bytes) }
            return .current(String(decoding: bytes[8...], as: UTF8.self))
        }
        if starts(ended) {
            guard bytes.count == 6 || bytes[6] < 0x80 else { return parseCharacters(bytes) }
            return .ended(String(decoding: bytes[6...], as: UTF8.self))
        }
        return nil
    }

    /// The String reading, for a mark whose id starts with a non-ASCII byte (which a combining
    /// mark could join to the space): not what kcauth writes, kept as it was read before.
    static func parseCharacters(_ bytes: [UInt8]) -> State? {
        let text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("current "), text.utf8.count > 8 { return .current(String(text.dropFirst(8))) }
        if text.hasPrefix("ended ") { return .ended(String(text.dropFirst(6))) }
        return nil
    }

    /// Whether a cached token of session `id` may still be served.
    public static func admits(_ id: String?, mark: State?) -> Bool {
        guard let id, !id.isEmpty, case .current(let current)? = mark else { return false }
        return current == id
    }

    /// Records that `id` is the profile's session now (after it was stored, or read from the
    /// store). Does nothing when that very session has been ended meanwhile. Best effort: a mark
    /// that cannot be written only makes the cache miss.
    public static func note(profile: String, binding: CachePolicy.Binding, session id: String,
                            directory: String? = ContractPaths.sharedDirectory(), uid: uid_t = geteuid()) {
        guard !id.isEmpty, id.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return }
        update(profile: profile, binding: binding, directory: directory, uid: uid) { old in old == .ended(id) ? nil : .current(id) }
    }

    /// Records that the profile's session `id` (nil: whatever it was) is over: no cached copy of
    /// it is served again, in any environment.
    public static func end(profile: String, binding: CachePolicy.Binding, session id: String?,
                           directory: String? = ContractPaths.sharedDirectory(), uid: uid_t = geteuid()) {
        update(profile: profile, binding: binding, directory: directory, uid: uid) { old in
            if let id { return .ended(id) }
            switch old {
            case .current(let current)?: return .ended(current)
            case .ended?: return nil
            case nil: return .ended("")
            }
        }
    }

    /// Read-modify-write under `flock`, in place (`ftruncate` + `pwrite`): a rename would leave
    /// a lock holder writing to a file nobody reads.
    private static func update(profile: String, binding: CachePolicy.Binding, directory: String?, uid: uid_t,
                               _ change: (State?) -> State?) {
        guard let directory, let path = file(profile: profile, binding: binding, directory: directory),
              ContractPaths.makeDirectories(directory) else { return }
        guard case .bytes = ContractFile.checkDirectory(directory, rule: .secret, euid: uid, mayBeAbsent: false) else { return }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, FileRule.secret.check(info, euid: uid) == nil else { return }
        guard flock(fd, LOCK_EX) == 0 else { return }
        defer { _ = flock(fd, LOCK_UN) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let n = pread(fd, &buffer, buffer.count, 0)
        let old = n > 0 ? parse(Array(buffer[..<n])) : nil
        guard let new = change(old), new != old else { return }
        let text: String
        switch new {
        case .current(let id): text = "current " + id
        case .ended(let id): text = "ended " + id
        }
        let bytes = Array(text.utf8)
        guard ftruncate(fd, 0) == 0 else { return }
        _ = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }
}
