// libFuzzer target (hostile input never traps): the runtime cache file's one reader (both programs
// use it) never traps, and whatever it reads, its writer writes back to the same record.
import KCAuthContract

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCacheRecord(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let record = CacheRecord(bytes) {
        precondition(CacheRecord(record.encoded()) == record, "a record reads back the same")
    }
    // kubectl's variable goes through the same JSON reader.
    _ = ExecInfoRule.read(String(decoding: bytes, as: UTF8.self))
    return 0
}
