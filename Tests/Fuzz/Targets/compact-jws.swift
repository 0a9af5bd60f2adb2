// libFuzzer target: compact JWS parsing (RFC 7515 §7.1), the way an ID token from the provider
// is read before its signature is checked, and the unverified claims kcauth shows.
import KCAuthCore
import KCAuthCrypto

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCompactJWS(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? CompactJWS(text)
    _ = IDTokenClaims.unverified(text)
    return 0
}
