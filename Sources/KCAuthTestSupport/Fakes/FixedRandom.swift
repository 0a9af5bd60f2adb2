import Foundation
import Testing
@_exported import KCAuthCore

/// Every byte is 0x01, so state, nonce and verifier are predictable in assertions.
public struct FixedRandom: RandomSource {
    public init() {}
    public func bytes(_ count: Int) throws -> [UInt8] { Array(repeating: 1, count: count) }
}
