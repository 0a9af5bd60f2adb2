// libFuzzer target: the configuration file parser; whatever parses must serialize to text that
// parses back to the same document (a rewrite never changes what kcauth reads).
import KCAuthCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self),
          var doc = try? ConfigDocument(parsing: text, path: "/fuzz") else { return 0 }
    guard let written = try? doc.serialized(path: "/fuzz") else { fatalError("a parsed document must be writable") }
    precondition((try? ConfigDocument(parsing: written, path: "/fuzz")) == doc, "a rewrite reads back the same")
    for profile in doc.profileNames { _ = try? ProfileSettings(doc, profile: profile, path: "/fuzz") }
    _ = try? doc.defaultProfile(path: "/fuzz")
    doc.set("client_id", "kcauth", profile: doc.profileNames.first ?? "default")
    _ = try? doc.serialized(path: "/fuzz")
    if let first = doc.profileNames.first { doc.removeProfile(first); _ = try? doc.serialized(path: "/fuzz") }
    return 0
}
