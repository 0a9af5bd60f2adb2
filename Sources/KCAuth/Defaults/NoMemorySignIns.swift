import KCAuthCore

/// No notes of memory-only sign-ins (tests, and programs that build their own adapters): a
/// profile signed in with the memory store is then reported like any profile without a session.
public struct NoMemorySignIns: MemorySignIns {
    public init() {}
    public func note(profile: String) {}
    public func noted(profile: String) -> Bool { false }
    public func forget(profile: String) {}
}
