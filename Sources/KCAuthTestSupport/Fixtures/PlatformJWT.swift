import Foundation
import KCAuthCrypto

/// A platform's assertion as a client sees it: a compact JWS whose payload carries the given
/// claims (the signature is a placeholder: the provider checks it, kcauth only reads the claims).
public enum PlatformJWT {
    public static func make(_ claims: [String: Any]) -> String {
        let header = #"{"alg":"RS256","kid":"platform-1","typ":"JWT"}"#
        let payload = (try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])) ?? Data()
        return Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload)) + ".c2lnbmF0dXJl"
    }
}
