import Foundation
import Testing
@testable import KCAuthCore
import KCAuthTestSupport

/// Storage choice in the core: the storage kinds, the sticky profile setting, the memory store, and
/// the move between stores that removes the old copy only after the new one is written.
@Suite struct StorageChoiceTests {
    @Test func storageKindsParseAndReportTheirSource() throws {
        #expect(try StorageKind(parsing: "file", source: "--storage") == .file)
        let error = try #require(throws: KCAuthError.self) { try StorageKind(parsing: "disk", source: "$KCAUTH_STORAGE") }
        #expect(error.code == .usage)
        #expect(error.message == "$KCAUTH_STORAGE: 'disk' is not a storage kind: use one of keyring, encrypted, file, memory")
        #expect(throws: KCAuthError.self) { try StorageKind(parsing: "memory", source: "x", allowed: StorageKind.persistent) }
    }

    @Test func theProfileRemembersKeyringOrFileButNeverMemory() throws {
        var doc = try ConfigDocument(parsing: "[work]\nstorage = file\n", path: "/c")
        #expect(try ProfileSettings(doc, profile: "work", path: "/c").storage == .file)
        #expect(try ProfileSettings(doc, profile: "other", path: "/c").storage == nil)

        ProfileSettings(issuer: "https://x/realms/y", storage: nil).apply(to: &doc, profile: "work")
        #expect(!doc.text.contains("storage"), "the keyring is the default and needs no line")

        let memory = try ConfigDocument(parsing: "[work]\nstorage = memory\n", path: "/c")
        let error = try #require(throws: KCAuthError.self) { try ProfileSettings(memory, profile: "work", path: "/c") }
        #expect(error.code == .configuration)
        #expect(error.message == "/c:2: profile [work]: storage: 'memory' is not a storage kind: use one of keyring, encrypted, file")
    }

    @Test func theMemoryStoreKeepsWhatItIsGivenForTheProcessOnly() throws {
        let store = MemorySecretStore()
        #expect(store.name == "memory")
        #expect(try store.read(profile: "p") == nil)
        try store.write("s", for: SecretKey(profile: "p", issuer: "i", clientID: "c"))
        #expect(try store.read(profile: "p") == "s")
        #expect(try store.delete(profile: "p"))
        #expect(try !store.delete(profile: "p"))
    }

    @Test func movingWritesTheNewCopyThenRemovesTheOldOne() throws {
        let old = InMemorySecretStore(), new = InMemorySecretStore()
        let key = SecretKey(profile: "p", issuer: "i", clientID: "c")
        try old.write("old", for: key)
        let reports = Reports()
        let moving = MigratingSecretStore(target: new, previous: old, report: reports.add)
        try moving.write("new", for: key)
        #expect(try new.read(profile: "p") == "new")
        #expect(try old.read(profile: "p") == nil)
        #expect(reports.all == [.removed])

        try moving.write("newer", for: key)
        #expect(reports.all == [.removed, .nothingThere])
    }

    @Test func aFailedWriteKeepsTheOldCopy() throws {
        let old = InMemorySecretStore(), new = InMemorySecretStore()
        let key = SecretKey(profile: "p", issuer: "i", clientID: "c")
        try old.write("old", for: key)
        new.unavailable = KCAuthError(.storageLocked, "locked")
        let reports = Reports()
        #expect(throws: KCAuthError.self) {
            try MigratingSecretStore(target: new, previous: old, report: reports.add).write("new", for: key)
        }
        #expect(try old.read(profile: "p") == "old")
        #expect(reports.all.isEmpty)
    }

    @Test func anOldStoreThatCannotBeCleanedIsReportedNotFatal() throws {
        let old = InMemorySecretStore(), new = InMemorySecretStore()
        old.unavailable = KCAuthError(.storageUnavailable, "no keyring")
        let reports = Reports()
        try MigratingSecretStore(target: new, previous: old, report: reports.add)
            .write("new", for: SecretKey(profile: "p", issuer: "i", clientID: "c"))
        #expect(try new.read(profile: "p") == "new")
        #expect(reports.all == [.failed(KCAuthError(.storageUnavailable, "no keyring"))])
    }
}

final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [MigratingSecretStore.Cleanup] = []
    var all: [MigratingSecretStore.Cleanup] { lock.withLock { items } }
    var add: @Sendable (MigratingSecretStore.Cleanup) -> Void { { [self] c in lock.withLock { items.append(c) } } }
}
