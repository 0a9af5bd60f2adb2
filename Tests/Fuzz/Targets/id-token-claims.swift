// libFuzzer target: a provider's ID token payload (OpenID Connect Core §2) decoded as kcauth decodes it.
import FoundationEssentials
import KCAuthCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIDTokenClaims(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? JSONDecoder().decode(IDTokenClaims.self, from: Data(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
