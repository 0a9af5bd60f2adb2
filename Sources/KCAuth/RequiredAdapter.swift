/// A seam of ``Adapters`` with no default: the composition root (`Adapters.system`) names the
/// real adapter, a test gives a fake (`KCAuthTestSupport`). One that nobody gave stops the
/// process the moment it is used, naming itself, rather than quietly being the real system (a
/// test's real terminal, files, ssh or keyring).
@propertyWrapper
public struct RequiredAdapter<Value: Sendable>: Sendable, RequiredSeam {
    public let name: String
    private var value: Value?

    public init(_ name: String) { self.name = name }

    public var isGiven: Bool { value != nil }

    public var wrappedValue: Value {
        get {
            guard let value else {
                fatalError("Adapters.\(name) is used but was never given: a test gives a fake (FakeAdapters), a program starts from Adapters.system()")
            }
            return value
        }
        set { value = newValue }
    }
}

/// What a test asks of every ``RequiredAdapter`` seam of an ``Adapters`` value (through `Mirror`).
protocol RequiredSeam {
    var name: String { get }
    var isGiven: Bool { get }
}
