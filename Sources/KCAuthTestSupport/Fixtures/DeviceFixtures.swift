import Foundation
import Testing
@_exported import KCAuthCore

public enum DeviceFixtures {
    public static let deviceEndpoint = Fixtures.issuer + "/protocol/openid-connect/auth/device"

    public static func authorization(complete: Bool = true, expiresIn: Int = 600, interval: Int? = 5) -> String {
        var fields = [#""device_code":"dc-1""#, #""user_code":"WDJB-MJHT""#,
                      #""verification_uri":"https://sso.example.test/realms/demo/device""#, #""expires_in":\#(expiresIn)"#]
        if complete { fields.append(#""verification_uri_complete":"https://sso.example.test/realms/demo/device?user_code=WDJB-MJHT""#) }
        if let interval { fields.append(#""interval":\#(interval)"#) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// The discovery document without `device_authorization_endpoint`.
    public static var discoveryWithoutDevice: String {
        Fixtures.discovery.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("device_authorization_endpoint") }.joined(separator: "\n")
    }
}
