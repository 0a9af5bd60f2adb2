import KCAuth
import KCAuthCore

/// What a command gets: the shared composition root (`KCAuthContext`, in the KCAuth library)
/// and the console. Properties of the context read as properties of `services`.
@dynamicMemberLookup
public struct Services: Sendable {
    public let context: KCAuthContext
    public let console: any Console

    public init(environment: [String: String], console: any Console) {
        context = KCAuthContext(environment: environment)
        self.console = console
    }

    public subscript<T>(dynamicMember keyPath: KeyPath<KCAuthContext, T>) -> T { context[keyPath: keyPath] }

    /// `--profile`, else `$KCAUTH_PROFILE`, else `default_profile`, else `default`.
    func profile(_ command: ParsedCommand) throws -> String {
        try context.profile(explicit: command.value("profile"))
    }
}
