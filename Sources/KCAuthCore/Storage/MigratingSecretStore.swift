/// Moves a profile between stores: the session is written to `target`, and only after that write
/// succeeded is the copy in `previous` removed, so a failed login never loses the old session and
/// a successful one never leaves a second copy behind (a session lives in one store).
///
/// Removing the old copy is best effort: the new session is already safe, so a failure there is
/// reported through `report` (for a warning) rather than failing the login.
public struct MigratingSecretStore: SecretStore {
    /// What happened to the old copy after a successful write.
    public enum Cleanup: Sendable, Equatable {
        /// There was an old copy, and it is gone now.
        case removed
        /// There was nothing to remove.
        case nothingThere
        /// The old store could not be asked or changed; a copy may remain.
        case failed(KCAuthError)
    }

    public let target: any SecretStore
    public let previous: any SecretStore
    private let report: @Sendable (Cleanup) -> Void

    public init(target: any SecretStore, previous: any SecretStore, report: @escaping @Sendable (Cleanup) -> Void) {
        self.target = target
        self.previous = previous
        self.report = report
    }

    public var name: String { target.name }

    public func checkAvailable() throws { try target.checkAvailable() }

    public func read(profile: String) throws -> String? { try target.read(profile: profile) }

    public func write(_ secret: String, for key: SecretKey) throws {
        try target.write(secret, for: key)
        do {
            report(try previous.delete(profile: key.profile) ? .removed : .nothingThere)
        } catch let error as KCAuthError {
            report(.failed(error))
        } catch {
            report(.failed(KCAuthError(.internal, "\(error)")))
        }
    }

    @discardableResult
    public func delete(profile: String) throws -> Bool { try target.delete(profile: profile) }
}
