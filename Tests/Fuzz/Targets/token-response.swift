// libFuzzer target: a provider's token endpoint answer (RFC 6749 §5.1) decoded as kcauth decodes it.
import FoundationEssentials
import KCAuthCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTokenResponse(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? JSONDecoder().decode(TokenResponse.self, from: Data(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
