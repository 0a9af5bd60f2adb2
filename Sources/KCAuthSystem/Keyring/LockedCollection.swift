/// Thrown inside an operation when the default collection is locked; `perform` decides whether
/// to unlock it (never escapes the store).
struct LockedCollection: Error {
    var label: String?
}
