import Foundation
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

    /// A test that forgot a fake (``forgottenFake()``), run in a process of its own because it
    /// stops that process: `doctor` over adapters without a host inspection. With a default it
    /// quietly inspected this machine's real keyring; now the process fails, naming the seam.
    ///
    /// Not an exit test (`#expect(processExitsWith:)`): on Linux its monitor waits with
    /// `waitid(P_ALL, …, WNOWAIT)` and never gets past the launchers other tests of this process
    /// leave as zombies (a browser is not waited for once it started), so it would hang.
    @Test func aForgottenFakeStopsTheTestNamingTheSeam() throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        child.arguments = ["--testing-library", "swift-testing", "--filter", "AdaptersTests/forgottenFake"]
        child.environment = ProcessInfo.processInfo.environment.merging([Self.childVariable: "1", "SWIFT_BACKTRACE": "enable=no"]) { $1 }
        let stderr = Pipe()
        child.standardOutput = FileHandle.nullDevice
        child.standardError = stderr
        try child.run()
        let said = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal || child.terminationStatus != 0)
        #expect(said.contains("Adapters.hostInspection is used but was never given"), "\(said)")
    }

    static let childVariable = "KCAUTH_TEST_FORGOTTEN_FAKE"

    /// The child's test: skipped unless ``aForgottenFakeStopsTheTestNamingTheSeam()`` runs it.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil))
    func forgottenFake() {
        let fake = FakeAdapters(config: FakeAdapters.profileConfig)
        _ = KCAuthContext(adapters: fake.bareAdapters).doctor().run(SettingsFlags(), describeSettings: { _ in "" })
    }
}
