import Testing
import Synchronization
import KCAuth
import KCAuthCore
import KCAuthTestSupport

/// A profile whose last login kept its session in memory only says so, whatever store it would
/// otherwise be read from; a session that store does hold is read as always.
@Suite struct MemorySignInTests {
    final class Notes: MemorySignIns {
        let noted = Mutex<Set<String>>([])
        func note(profile: String) { _ = noted.withLock { $0.insert(profile) } }
        func noted(profile: String) -> Bool { noted.withLock { $0.contains(profile) } }
        func forget(profile: String) { _ = noted.withLock { $0.remove(profile) } }
    }

    static let noKeyring = KCAuthError(.storageUnavailable, "no D-Bus session bus")

    func context(_ fake: FakeAdapters, notes: Notes, keyring: (any SecretStore)? = nil) -> KCAuthContext {
        var adapters = fake.adapters
        adapters.memorySignIns = notes
        if let keyring { adapters.secretStore = { kind, _ in kind == .keyring ? keyring : fake.stores[kind]! } }
        return KCAuthContext(adapters: adapters)
    }

    @Test func aNotedProfileWithoutAKeyringIsGoneNotUnavailable() throws {
        let notes = Notes()
        let context = context(FakeAdapters(), notes: notes, keyring: FailingStore(error: Self.noKeyring))
        let mem = try context.resolve(SettingsFlags(profile: "mem"))
        #expect { try context.store(for: mem).read(profile: "mem") } throws: { ($0 as? KCAuthError)?.code == .storageUnavailable }
        notes.note(profile: "mem")
        #expect { try context.store(for: mem).read(profile: "mem") } throws: {
            let error = $0 as? KCAuthError
            return error?.code == .loginRequired && error?.problem == .keptInMemoryOnly(profile: "mem") && error?.remedy == .signIn(profile: "mem")
        }
        let entry = try context.status(selected: mem).selected
        #expect(entry.state == .loginRequired(reason: "the session of profile 'mem' was kept in memory only by its last login, and is gone"))
        #expect(entry.storage == "memory" && entry.fix == .signIn(needsSettings: false))
    }

    @Test func aSessionTheStoreHoldsIsReadAndAWriteThereForgetsTheNote() throws {
        let fake = FakeAdapters(config: FakeAdapters.profileConfig)
        let notes = Notes()
        notes.note(profile: "default")
        let context = context(fake, notes: notes)
        let profile = try context.resolve()
        #expect { try context.store(for: profile).read(profile: "default") } throws: { ($0 as? KCAuthError)?.code == .loginRequired }
        try context.store(for: profile).write("{}", for: SecretKey(profile: "default", issuer: Fixtures.issuer, clientID: "kcauth"))
        #expect(!notes.noted(profile: "default"))
        #expect(try context.store(for: profile).read(profile: "default") == "{}")
    }
}
