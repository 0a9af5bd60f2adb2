// libFuzzer target: a provider's discovery document (OpenID Connect Discovery 1.0 §3) decoded as kcauth decodes it.
import FoundationEssentials
import KCAuthCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProviderMetadata(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? JSONDecoder().decode(ProviderMetadata.self, from: Data(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
