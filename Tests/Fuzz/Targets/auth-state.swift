// libFuzzer target: a stored session (keyring item or state file) read back; another program or
// an old kcauth may have written it.
import KCAuthCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAuthState(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let state = try? AuthState.decode(text, profile: "default") { _ = try? state.encoded() }
    return 0
}
