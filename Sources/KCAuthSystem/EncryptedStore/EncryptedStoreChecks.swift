#if canImport(Glibc)
import Glibc
#endif
import KCAuthCore

/// `kcauth doctor` for a profile on the encrypted store: the kernel keyring, the
/// key file's header, the profile's session header, and whether the store is unlocked. Nothing
/// here asks for the passphrase or decrypts anything.
public struct EncryptedStoreChecks {
    let store: EncryptedSecretStore
    let profile: String

    public init(store: EncryptedSecretStore, profile: String) {
        self.store = store
        self.profile = profile
    }

    public func run() -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        switch KernelKeyring().probe() {
        case .available:
            checks.append(.pass("kernel-keyring", "kernel keyring", "add_key and keyctl work", fact: .kernelKeyringWorks))
        case .unavailable(let why):
            checks.append(.fail("kernel-keyring", "kernel keyring",
                                KCAuthError(.storageUnavailable, "unavailable: \(why)", remedy: .passphraseEachCommand)))
        }
        let key: EncryptedStoreKey?
        do {
            key = try store.loadKey(path: store.keyFile)
            if let key {
                checks.append(.pass("store-key", "encrypted store key file",
                                    "\(store.keyFile): format 1, scrypt N=\(key.kdf.n) r=\(key.kdf.r) p=\(key.kdf.p), private (0600)"))
            } else {
                checks.append(.pass("store-key", "encrypted store key file", "not created yet", fact: .storeNotCreated))
            }
        } catch {
            checks.append(.fail("store-key", "encrypted store key file", KCAuthError.wrapping(error)))
            return checks
        }
        let path = store.path(for: profile)
        do {
            // With a key file, the session file that belongs to it (a key rotation killed
            // after its commit leaves the re-sealed copy beside the old one).
            if var text = try PrivateFile.read(path) {
                if let key { text = try store.sessionText(text, profile: profile, key: key).text }
                try SealedSession.checkHeader(text, profile: profile, storeID: key?.id)
                checks.append(.pass("store-session", "encrypted session file", "\(path): header names profile '\(profile)' and this store"))
            } else {
                checks.append(.pass("store-session", "encrypted session file", "no session stored yet for profile '\(profile)'"))
            }
        } catch let problem as SealedFileProblem {
            checks.append(.fail("store-session", "encrypted session file", store.problem(path, problem)))
        } catch {
            checks.append(.fail("store-session", "encrypted session file", KCAuthError.wrapping(error)))
        }
        if key != nil, let state = store.encryptedState {
            if state == .locked {
                // As `status` has it: no command that cannot ask for the passphrase reads a session.
                checks.append(DoctorCheck("store-unlocked", "encrypted store", .fail,
                                          "locked: commands without a terminal (git, kubectl, cron) cannot read its sessions",
                                          remedy: .unlockStore))
            } else {
                checks.append(.pass("store-unlocked", "encrypted store", "\(state)", fact: .store(state)))
            }
        }
        return checks
    }
}
