import KCAuthCore

extension KCAuthContext {
    /// `doctor`'s checks over this context's adapters.
    public func doctor() -> Doctor { Doctor(context: self) }

    /// `doctor --bundle`'s collection and archive over this context's adapters.
    public func doctorBundle() -> DoctorBundle { DoctorBundle(context: self) }
}
