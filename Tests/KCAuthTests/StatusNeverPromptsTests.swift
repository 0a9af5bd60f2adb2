import Testing
import KCAuth
import KCAuthCore
import KCAuthTestSupport

/// `status` reports a locked keyring; it never asks to unlock it (a report asks nothing).
@Suite struct StatusNeverPromptsTests {
    /// A keyring that is locked: it would prompt (and then answer) unless asked to only report.
    final class LockedKeyring: UnlockPrompting, @unchecked Sendable {
        let name = "keyring"
        let reporting: Bool
        let prompted: PromptCounter
        init(reporting: Bool, prompted: PromptCounter) { self.reporting = reporting; self.prompted = prompted }
        func reportingOnly() -> any SecretStore { LockedKeyring(reporting: true, prompted: prompted) }
        func checkAvailable() throws { try unlock() }
        func read(profile: String) throws -> String? { try unlock(); return nil }
        func write(_ secret: String, for key: SecretKey) throws { try unlock() }
        func delete(profile: String) throws -> Bool { try unlock(); return false }
        private func unlock() throws {
            if reporting { throw KCAuthError(.storageLocked, "the keyring is locked") }
            prompted.count += 1
        }
    }
    final class PromptCounter: @unchecked Sendable { var count = 0 }

    @Test func statusReportsLockedWithoutPrompting() throws {
        let fake = FakeAdapters(config: FakeAdapters.profileConfig)
        let prompted = PromptCounter()
        var adapters = fake.adapters
        adapters.secretStore = { _, _ in LockedKeyring(reporting: false, prompted: prompted) }
        let context = KCAuthContext(adapters: adapters)

        let report = try context.status(selected: context.resolve())
        #expect(prompted.count == 0)
        guard case .storageUnavailable(let error) = report.entries.first?.state else {
            Issue.record("expected a storage failure, got \(String(describing: report.entries.first?.state))")
            return
        }
        #expect(error.code == .storageLocked)

        // Commands that may prompt get the prompting store.
        _ = try context.store(for: context.resolve()).read(profile: "default")
        #expect(prompted.count == 1)
    }
}
