/// One file of `doctor --bundle`'s archive: its name in the archive and its bytes.
public struct BundleMember: Sendable, Equatable {
    public var name: String
    public var bytes: [UInt8]

    public init(_ name: String, _ bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    public init(_ name: String, text: String) {
        self.init(name, Array(text.utf8))
    }
}
