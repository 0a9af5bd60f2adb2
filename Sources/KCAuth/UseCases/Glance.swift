import KCAuthContract
import KCAuthCore

/// `kcauth prompt`: a profile's session at a glance for a shell prompt or a status bar, from what
/// the runtime cache knows (KCAuthContract's ``SessionGlance``: the record, the session mark, the
/// store's lock note) — never the store, the network or a person, and never a word on stderr:
/// the context it runs in has its warnings turned off (`KCAuthContext.glance()`).
public struct Glance: Sendable {
    let context: KCAuthContext

    /// The profile and its glance; nil when there is nothing to show: a profile without a section
    /// in the configuration file, settings that cannot be read, or a session forwarded by
    /// `kcauth ssh` (its sessions are the laptop's, which only its socket could tell).
    public func run(_ flags: SettingsFlags) -> (profile: String, glance: SessionGlance)? {
        guard !ForwardRule.announced({ context.environment[$0] }),
              let config = try? context.config(), let profile = try? context.resolve(flags),
              config.profileNames.contains(profile.name) else { return nil }
        let binding = profile.cacheBinding.contract, now = context.clock.instant
        guard let cache = context.adapters.tokenCache else {
            return (profile.name, SessionGlance.of(record: nil, binding: binding, mark: nil, storeLocked: { false }, now: now.epochSeconds))
        }
        return (profile.name, cache.glance(profile: profile.name, binding: binding, now: now))
    }
}
