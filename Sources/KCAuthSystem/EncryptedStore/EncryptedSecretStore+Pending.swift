#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract
import KCAuthCore

/// The files a key rotation (``EncryptedSecretStore/rotate(_:dataKey:passphrase:)``) writes
/// beside the store's own before its commit, and how readers and the next writer deal with one
/// that was killed half-way.
extension EncryptedSecretStore {
    /// `store.key.next` and `<profile>.sealed.next`: the new key file and the re-sealed sessions.
    static let pendingSuffix = ".next"

    /// The profile's session as the store has it now (`text`: what its session file holds),
    /// and the key file it belongs to. Between a rotation's commit and its renames (or after a
    /// rotation killed there) the re-sealed `.next` file beside the session file is the one
    /// whose header names the store; and a reader that read `store.key` just before a rotation
    /// committed reads it again.
    func sessionText(_ text: String, profile: String, key: EncryptedStoreKey) throws -> (text: String, key: EncryptedStoreKey) {
        let path = path(for: profile)
        do {
            try SealedSession.checkHeader(text, profile: profile, storeID: key.id)
            return (text, key)
        } catch .otherStore {
            if let pending = try PrivateFile.read(path + Self.pendingSuffix),
               (try? SealedSession.checkHeader(pending, profile: profile, storeID: key.id)) != nil {
                return (pending, key)
            }
            if let again = try loadKey(path: keyFile), again.id != key.id,
               (try? SealedSession.checkHeader(text, profile: profile, storeID: again.id)) != nil {
                return (text, again)
            }
            throw problem(path, .otherStore)
        } catch {
            throw problem(path, error)
        }
    }

    /// Under the store lock, before a write: finishes or undoes a rotation that was killed.
    /// A `store.key.next` means its commit never happened: it goes. A `<profile>.sealed.next`
    /// whose header names the store `store.key` now opens was committed, and is renamed into
    /// place; any other is a leftover of a rotation that never committed, and goes. So do the
    /// temporary files of a write that was killed (`… .tmp-XXXXXX`, ``AtomicFile``) of the
    /// store's own files.
    func settlePending() throws {
        guard access(directory, F_OK) == 0 else { return }
        let current = try loadKey(path: keyFile)
        var changed = false
        for name in entries() {
            let path = directory + "/" + name
            if name.hasPrefix("store.key.") || name.contains(".sealed") && name.contains(".tmp-") {
                changed = unlink(path) == 0 || changed
            } else if name.hasSuffix(".sealed" + Self.pendingSuffix) {
                let profile = String(name.dropLast((".sealed" + Self.pendingSuffix).count))
                if let current, ProfileNameRule.isValid(profile), let text = try? PrivateFile.read(path),
                   (try? SealedSession.checkHeader(text, profile: profile, storeID: current.id)) != nil {
                    changed = rename(path, self.path(for: profile)) == 0 || changed
                } else {
                    changed = unlink(path) == 0 || changed
                }
            }
        }
        if changed { syncDirectory() }
    }

    /// Removes what a rotation wrote before its commit (it failed, nothing is changed).
    func removePending() {
        for name in entries() where name.hasSuffix(Self.pendingSuffix) {
            unlink(directory + "/" + name)
        }
        syncDirectory()
    }

    /// The profiles with a session file in the store, by file name.
    func sealedProfiles() throws -> [String] {
        entries().compactMap { name in
            guard name.hasSuffix(".sealed") else { return nil }
            let profile = String(name.dropLast(".sealed".count))
            return ProfileNameRule.isValid(profile) ? profile : nil
        }.sorted()
    }

    /// The names in the store's directory (none when it cannot be listed).
    func entries() -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Makes renames and removals in the directory durable, as ``AtomicFile`` does for a write.
    func syncDirectory() {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); close(fd) }
    }
}
