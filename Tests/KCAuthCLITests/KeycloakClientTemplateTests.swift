import Foundation
import Testing
@testable import KCAuthCLI
import KCAuthCore

/// `kcauth setup-client`'s output: JSON Keycloak imports, with the settings kcauth needs.
@Suite struct KeycloakClientTemplateTests {
    @Test func theJSONIsAPublicPKCEClientWithTheDeviceGrant() throws {
        let json = try KeycloakClientTemplate(clientID: "cli \"quoted\"").json
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["clientId"] as? String == "cli \"quoted\"")
        #expect(object["protocol"] as? String == "openid-connect")
        #expect(object["publicClient"] as? Bool == true)
        #expect(object["standardFlowEnabled"] as? Bool == true)
        #expect(object["directAccessGrantsEnabled"] as? Bool == false)
        #expect(object["implicitFlowEnabled"] as? Bool == false)
        #expect(object["redirectUris"] as? [String] == ["http://127.0.0.1/callback"])
        let attributes = try #require(object["attributes"] as? [String: String])
        #expect(attributes["pkce.code.challenge.method"] == "S256")
        #expect(attributes["oauth2.device.authorization.grant.enabled"] == "true")
    }

    @Test func kcadmQuotesForTheShellAndEmbedsTheSameJSON() throws {
        let template = try KeycloakClientTemplate(clientID: "cli")
        let script = template.kcadm(server: "https://sso.example.com/it's", realm: "demo")
        #expect(script.contains("kcadm.sh config credentials --server 'https://sso.example.com/it'\\''s' --realm master --user admin"))
        #expect(script.contains("kcadm.sh create clients -r 'demo' -f - <<'KCAUTH_CLIENT'\n" + template.json + "KCAUTH_CLIENT\n"))
    }

    @Test(arguments: ["", "a\nb"])
    func rejectsUnusableClientIDs(_ id: String) {
        #expect(throws: KCAuthError.self) { try KeycloakClientTemplate(clientID: id) }
    }
}
