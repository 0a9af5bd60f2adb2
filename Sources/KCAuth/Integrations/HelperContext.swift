import KCAuthContract
import KCAuthCore

/// What the git and docker credential helpers share: the composition root, the profile named
/// on the helper's command line, and the forwarded session of `ssh` when one is announced (then
/// nothing is read from this host's configuration or stores).
struct HelperContext: Sendable {
    let context: KCAuthContext
    let option: String?
    let forwarded: ForwardedHelperToken.Source?

    /// The picked profile (``HelperProfiles/picked(_:option:)``). Over a forwarded session the
    /// laptop's profiles are not this host's configuration to check a directory's file against:
    /// a name this host lacks picks nothing, and the laptop's `hosts` settings choose.
    var picked: String? {
        get throws {
            guard forwarded != nil else { return try HelperProfiles.picked(context, option: option) }
            return (try? HelperProfiles.picked(context, option: option)) ?? nil
        }
    }

    func profiles() throws -> HelperProfiles { try HelperProfiles(context) }

    /// Standard input as the tool's wire protocol sends it (its limit, its end).
    func input(_ wire: CredentialHelper.Wire) throws -> String {
        try context.adapters.standardInput.read(limit: wire.inputLimit, stopAtBlankLine: wire.endsAtBlankLine)
    }

    /// A token valid for the helpers' minimum (``HelperRule``) of the profile `name`.
    func token(_ profile: ResolvedProfile, force: Bool = false) throws -> IssuedToken {
        try context.tokenProvider(profile).run(TokenProvider.Request(minValid: HelperRule.minValid, force: force))
    }
}
