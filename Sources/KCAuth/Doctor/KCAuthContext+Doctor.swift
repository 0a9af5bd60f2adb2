import KCAuthCore

extension KCAuthContext {
    /// `doctor`'s checks over this context's adapters.
    public func doctor() -> Doctor { Doctor(context: self) }
}
