import Testing
@testable import KCAuth
import KCAuthTestSupport

/// `Adapters` has no real defaults: the composition root names every real adapter, tests give
/// fakes, and a seam nobody gave stops the process when used instead of being the real system.
@Suite struct AdaptersTests {
    static func seams(_ adapters: Adapters) -> [any RequiredSeam] {
        Mirror(reflecting: adapters).children.compactMap { $0.value as? any RequiredSeam }
    }

    @Test func theCompositionRootGivesEverySeam() {
        let seams = Self.seams(Adapters.system(environment: ["HOME": "/nonexistent"]))
        #expect(seams.count >= 10, "the seams that reach the machine are required")
        #expect(seams.filter { !$0.isGiven }.map(\.name) == [])
    }

    @Test func theFakesGiveEverySeamAndABareSetGivesNone() {
        let fake = FakeAdapters()
        #expect(Self.seams(fake.adapters).filter { !$0.isGiven }.map(\.name) == [])
        #expect(Self.seams(fake.bareAdapters).allSatisfy { !$0.isGiven }, "nothing defaults to the real system")
    }

    /// A test that forgot a fake: `doctor` needs the host inspection, which nobody gave. Before,
    /// it quietly inspected this machine's real keyring; now the process stops, naming the seam.
    @Test func aForgottenFakeStopsTheTestNamingTheSeam() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let fake = FakeAdapters(config: FakeAdapters.profileConfig)
            _ = KCAuthContext(adapters: fake.bareAdapters).doctor().run(SettingsFlags(), describeSettings: { _ in "" })
        }
        let said = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(said.contains("Adapters.hostInspection is used but was never given"))
    }
}
