// libFuzzer target, differential (front and full give one answer): the front's configuration
// scanner against the full program's parser. Whatever the front would serve from — a file it
// accepts and a profile whose values all pass the catalogue (CacheGate) — the full program must
// read without a word and resolve to the same cache binding. The other way round (the front hands
// off where the full program would accept) is allowed: it only costs speed.
@testable import KCAuthFastPath
import KCAuthContract
import KCAuthCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrontConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    // The first byte picks the profile asked for: none (the file decides), or a name.
    let wanted: String? = [nil, "default", "work", "p1"][Int(data[0]) % 4]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    guard let fast = FastConfigFile(bytes, wanted: wanted) else { return 0 }
    guard let binding = fast.binding() else { return 0 }
    // The front would serve: the full program must agree on every step.
    guard let text = String(validating: bytes, as: UTF8.self) else { fatalError("the front accepted text that is not UTF-8") }
    let doc: ConfigDocument
    do { doc = try ConfigDocument(parsing: text, path: "/fuzz") } catch { fatalError("the full parser refused what the front served from: \(error)") }
    // A key the full program does not read is warned about: the front must not serve silently.
    precondition(doc.unknownKeys().isEmpty, "the full program would warn of a key the front served past")
    let resolver = SettingsResolver(environment: [:], config: doc, configPath: "/fuzz", workingDirectory: "/")
    let resolved: ResolvedProfile
    do { resolved = try resolver.resolve(SettingsFlags(profile: wanted)) } catch { fatalError("the full program refuses the profile: \(error)") }
    precondition(resolved.name == fast.profile, "the same profile is chosen")
    precondition(resolved.issuer?.value == binding.issuer && resolved.clientID?.value == binding.clientID
                 && resolved.storage.value.rawValue == binding.storage, "the same cache binding")
    return 0
}
