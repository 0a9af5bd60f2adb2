import Testing
@testable import KCAuthCLI
import KCAuth
import KCAuthTestSupport

/// The device flow's QR code comes from `Adapters.qrCode` (the CLI imports no renderer).
@Suite struct LoginQRCodeTests {
    @Test func theQRCodeIsDrawnByTheAdapter() {
        let fake = FakeAdapters(config: FakeAdapters.profileConfig)
        fake.transport.on(.get, Fixtures.issuer + "/.well-known/openid-configuration", json: Fixtures.discovery)
        fake.transport.on(.get, Fixtures.jwksURI, json: Fixtures.jwks)
        fake.transport.on(.post, DeviceFixtures.deviceEndpoint, json: DeviceFixtures.authorization())
        fake.transport.on(.post, Fixtures.tokenEndpoint, json: Fixtures.tokenResponse())
        let console = RecordingConsole(tty: true)
        let code = KCAuthMain.run(arguments: ["login", "--device", "--qr"],
                                  services: Services(context: KCAuthContext(adapters: fake.adapters), console: console))
        #expect(code == 0, "\(console.stderr)")
        #expect(console.stderr.contains("[QR code: https://"), "\(console.stderr)")
        #expect(console.stderr.contains("Logged in to \(Fixtures.issuer) as alice"))
    }
}
