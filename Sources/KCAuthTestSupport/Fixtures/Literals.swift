import KCAuthCore

// Times and lifetimes written as literals in tests (`now: 1_763_700_000`, `expiresIn: 300`).
// Only here: production code builds them through their checked initialisers.
extension Instant: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    public init(integerLiteral value: Int) { self.init(clock: Double(value)) }
    public init(floatLiteral value: Double) { self.init(clock: value) }
}

extension Seconds: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    public init(integerLiteral value: Int) { self = Seconds(Double(value))! }
    public init(floatLiteral value: Double) { self = Seconds(value)! }
}
