// libFuzzer target: the loopback listener's request parser (HTTPRequestHead, compiled into this
// module) and what the listener does with a request to the callback path (FormEncoding,
// CallbackJudge). Input: the bytes a local process sends to the listener.
import KCAuthCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLoopbackRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard case .request(_, _, let query) = HTTPRequestHead.parse(bytes) else { return 0 }
    let request = CallbackRequest(parameters: FormEncoding.decode(query ?? ""))
    for issRequired in [false, true] {
        let judge = CallbackJudge(expectedState: Secret(.state, request["state"] ?? "s"), issuer: "https://sso.example.com/realms/demo", issRequired: issRequired)
        if case .failed(let error) = judge.judge(request) { precondition(!error.message.contains("\n"), "an error is one line") }
    }
    return 0
}
