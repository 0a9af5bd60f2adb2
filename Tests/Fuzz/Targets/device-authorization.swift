// libFuzzer target: a provider's device authorization answer (RFC 8628 §3.2) decoded as kcauth decodes it.
import FoundationEssentials
import KCAuthCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDeviceAuthorizationResponse(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? JSONDecoder().decode(DeviceAuthorizationResponse.self, from: Data(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
