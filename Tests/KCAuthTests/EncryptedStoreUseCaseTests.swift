import Testing
import KCAuth
import KCAuthCore
import KCAuthTestSupport

/// `unlock`, `lock` and `passphrase` over a fake kernel keyring, and when `login` offers the
/// encrypted store.
@Suite struct EncryptedStoreUseCaseTests {
    @Test func unlockLastsForTheTimeAskedAndLockRevokesIt() throws {
        let fake = FakeAdapters()
        let context = KCAuthContext(adapters: fake.adapters)
        let unlocked = try context.unlock().run(seconds: 3600)
        #expect(unlocked.now == fake.clock.instant)
        #expect(unlocked.until.seconds(since: unlocked.now) == 3600)
        #expect(fake.storeKeyring.isUnlocked)
        #expect(try context.lock().run() == .locked(keys: 1))
        #expect(!fake.storeKeyring.isUnlocked)
        #expect(try context.lock().run() == .wasNotUnlocked)
    }

    @Test func theDefaultIsTwelveHoursAndTheLimitThirtyDays() throws {
        let fake = FakeAdapters()
        let context = KCAuthContext(adapters: fake.adapters)
        let unlocked = try context.unlock().run()
        #expect(unlocked.until.seconds(since: unlocked.now) == 12 * 3600)
        #expect(throws: KCAuthError.self) { try context.unlock().run(seconds: 30 * 86400 + 1) }
        #expect(throws: KCAuthError.self) { try context.unlock().run(seconds: 0) }
    }

    @Test func aWrongPassphraseOrNoStoreLeavesItLocked() throws {
        let fake = FakeAdapters()
        fake.storeKeyring.given = "wrong"
        let context = KCAuthContext(adapters: fake.adapters)
        #expect { try context.unlock().run() } throws: { ($0 as? KCAuthError)?.code == .storageLocked }
        #expect(!fake.storeKeyring.isUnlocked)

        let none = FakeAdapters()
        none.storeKeyring = FakeStoreKeyring(clock: none.clock, created: false)
        let empty = KCAuthContext(adapters: none.adapters)
        #expect { try empty.unlock().run() } throws: {
            ($0 as? KCAuthError)?.message == "there is no encrypted store yet (/state/kcauth/store.key)"
                && ($0 as? KCAuthError)?.remedy == .createEncryptedStore
        }
        #expect { try empty.passphrase().run(newPassphraseFile: nil) } throws: { ($0 as? KCAuthError)?.remedy == .createEncryptedStore }
        #expect(try empty.lock().run() == .wasNotUnlocked)
    }

    @Test func withoutAKernelKeyringThereIsNothingToUnlockForOthers() {
        let fake = FakeAdapters()
        fake.storeKeyring.noKernelKeyring = "keyctl is not permitted"
        #expect { try KCAuthContext(adapters: fake.adapters).unlock().run() } throws: {
            ($0 as? KCAuthError)?.message == "cannot unlock for other processes: the kernel keyring is unavailable: keyctl is not permitted"
                && ($0 as? KCAuthError)?.remedy == .passphraseWithoutKernelKeyring
        }
        #expect(!fake.storeKeyring.isUnlocked)
    }

    @Test func aBuildWithoutTheStoreSaysSo() {
        var adapters = FakeAdapters().adapters
        adapters.storeKeyring = { nil }
        let context = KCAuthContext(adapters: adapters)
        #expect { try context.lock().run() } throws: { ($0 as? KCAuthError)?.code == .internal }
        #expect { try context.passphrase().run(newPassphraseFile: nil) } throws: { ($0 as? KCAuthError)?.code == .internal }
    }

    @Test func aNewPassphraseReplacesTheOld() throws {
        let fake = FakeAdapters()
        #expect(try KCAuthContext(adapters: fake.adapters).passphrase().run(newPassphraseFile: "/secret/new") == .rewrapped)
        #expect(fake.storeKeyring.passphrase == "from /secret/new")
    }

    @Test func aNewKeyReSealsTheSessionsAndAnUnlockedStoreStaysUnlocked() throws {
        let fake = FakeAdapters()
        fake.storeKeyring.profiles = ["default", "work"]
        let context = KCAuthContext(adapters: fake.adapters)
        let unlocked = try context.unlock().run(seconds: 600)
        #expect(try context.passphrase().run(newPassphraseFile: nil, newKey: true) == .newKey(profiles: ["default", "work"], unlockedUntil: unlocked.until))
        fake.storeKeyring.given = "asked"  // the new passphrase, typed
        #expect(try context.lock().run() == .locked(keys: 1))
        #expect(try context.passphrase().run(newPassphraseFile: nil, newKey: true) == .newKey(profiles: ["default", "work"], unlockedUntil: nil))
    }

    /// A keyring that is not there: `checkAvailable` fails as libsecret's does without a bus.
    struct AbsentKeyring: SecretStore {
        let name = "keyring"
        func checkAvailable() throws { throw KCAuthError(.storageUnavailable, "no D-Bus session bus") }
        func read(profile: String) throws -> String? { try checkAvailable(); return nil }
        func write(_ secret: String, for key: SecretKey) throws { try checkAvailable() }
        func delete(profile: String) throws -> Bool { try checkAvailable(); return false }
    }

    @Test func theStoreIsOfferedOnlyToAPersonWhoseKeyringIsMissingByDefault() throws {
        let fake = FakeAdapters(config: FakeAdapters.profileConfig)
        fake.terminal = ScriptedTerminal(interactive: true)
        var adapters = fake.adapters
        adapters.secretStore = { _, _ in AbsentKeyring() }
        let context = KCAuthContext(adapters: adapters)
        let profile = try context.resolve()
        #expect(try context.storeOffer().reason(profile, personCanAnswer: true)?.message == "no D-Bus session bus")
        #expect(try context.storeOffer().reason(profile, personCanAnswer: false) == nil)
        // Chosen explicitly: no offer, the keyring's failure is the answer.
        var flags = SettingsFlags()
        flags.storage = .keyring
        let chosen = try context.resolve(flags)
        #expect(try context.storeOffer().reason(chosen, personCanAnswer: true) == nil)
        // A working keyring: no offer.
        let working = KCAuthContext(adapters: fake.adapters)
        #expect(try working.storeOffer().reason(try working.resolve(), personCanAnswer: true) == nil)
    }
}
