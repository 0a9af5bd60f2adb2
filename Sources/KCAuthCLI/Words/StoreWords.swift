import KCAuthCore

/// The encrypted store's notices and state in the CLI's words: they name `kcauth unlock` and
/// `kcauth lock`, which only the command line has.
enum StoreWords {
    static func notice(_ notice: EncryptedStoreNotice) -> String {
        switch notice {
        case .createdUnlocked(let keyFile, let until, let passphraseFile):
            return "Created the encrypted store \(keyFile)" + (passphraseFile.map { ", with the passphrase from \($0)" } ?? "")
                + "; it is unlocked until \(until.rfc3339) (`kcauth lock` locks it now)."
        case .createdWithoutKernelKeyring(let keyFile, let why):
            return "Created the encrypted store \(keyFile). The kernel keyring is unavailable (\(why)): "
                + "each command will ask for the passphrase (or read --passphrase-file)."
        case .askedForThisCommandOnly:
            return "(Asked for this command only: `kcauth unlock` opens the store once for every process of yours.)"
        case .askingWithoutKernelKeyring(let why):
            return "The kernel keyring is unavailable (\(why)), so the store cannot stay unlocked: asking for the passphrase."
        }
    }

    static func state(_ state: EncryptedStoreState, now: Instant) -> String {
        switch state {
        case .unlocked(let until):
            // The one way kcauth says how far off an instant is: "(in 29m 56s)" (`RelativeTime`).
            return "unlocked until " + RelativeTime.stamp(until, now: now)
        case .locked: return "locked: run `kcauth unlock`"
        case .keyringUnavailable: return "no kernel keyring here: the passphrase is asked each time"
        case .absent: return "not created yet"
        }
    }

    /// A doctor check's detail, where the check states a fact the CLI phrases.
    static func detail(_ fact: DoctorCheck.Fact, now: Instant) -> String {
        switch fact {
        case .kernelKeyringWorks: return "add_key and keyctl work: `kcauth unlock` lasts for every process of yours"
        case .storeNotCreated: return "not created yet: \(RemedyWords.login.with(SettingsOptions.storage, StorageKind.encrypted.rawValue).quoted) creates it"
        case .store(let state): return self.state(state, now: now)
        case .unknownConfigKeys(let path, let keys): return ConfigWords.list(path: path, keys)
        }
    }
}
