/// Randomness for a client that never signs anything (a public client, a secret).
public struct NoRandom: RandomSource {
    public init() {}
    public func bytes(_ count: Int) throws -> [UInt8] {
        throw KCAuthError(.internal, "a public client does not sign assertions")
    }
}
