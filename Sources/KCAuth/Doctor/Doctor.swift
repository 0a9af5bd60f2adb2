import KCAuthContract
import KCAuthCore

/// `doctor`: every check kcauth depends on, each with its fix, over the context's adapters: the
/// store the profile uses, the configuration file, where each setting came from, the runtime
/// directory, the browser launcher and the provider. Reports only; changes nothing.
public struct Doctor: Sendable {
    public struct Report: Sendable, Equatable {
        /// The profile the checks were run for.
        public var profile: String
        public var checks: [DoctorCheck]
    }

    let context: KCAuthContext

    public init(context: KCAuthContext) { self.context = context }

    /// The checks, with the settings resolved as every command resolves them, except that a
    /// broken configuration file (or a bad value in it) is one of the things doctor reports, so
    /// it must not stop the other checks: they then use flags and environment only.
    /// `describeSettings`: the front end's one line of where each setting came from.
    /// `refused`: the front end could not take one of the settings it was given (reported like
    /// a bad value in the file).
    public func run(_ flags: SettingsFlags, refused: KCAuthError? = nil, describeSettings: (ResolvedProfile) -> String) -> Report {
        var resolved: ResolvedProfile?
        var resolveError: KCAuthError?
        do {
            if let refused { throw refused }
            resolved = try context.resolve(flags)
        } catch {
            resolveError = KCAuthError.wrapping(error)
            // A bad value in the file or the environment: check what can still be checked.
            resolved = (try? context.resolver(tolerant: true).resolve(flags))
                ?? (try? SettingsResolver(environment: [:], config: nil, configPath: context.settings.path, workingDirectory: nil).resolve(flags))
        }
        let profile = resolved?.name ?? ProfileName.defaultName
        let host = context.adapters.hostInspection()

        // The keyring checks apply only to a profile that keeps its session there.
        var storage: [DoctorCheck]
        switch resolved?.storage.value {
        case .keyring?:
            storage = host.keyring(skipped: nil)
        case .file?:
            storage = host.keyring(skipped: "not used: profile '\(profile)' keeps its session in a file")
            storage.append(host.fileStore(profile: profile))
        case .encrypted?:
            storage = host.keyring(skipped: "not used: profile '\(profile)' keeps its session in the encrypted store")
            storage += host.encryptedStore(profile: profile)
        case .memory?:
            storage = host.keyring(skipped: "not used: $KCAUTH_STORAGE is memory")
        default:
            storage = [.fail("storage", "storage choice", resolveError ?? KCAuthError(.configuration, "no storage could be chosen"))]
        }

        let provider = ProviderChecks(transport: context.http(caFile: resolved?.caFile?.value).transport, clock: context.clock)
        let settings = resolved.map { [DoctorCheck.pass("settings", "settings", describeSettings($0))] } ?? []
        let caFile = (resolved?.caFile?.value).map { [host.caFile($0)] } ?? []
        // A client that authenticates with a platform's assertion: one is fetched and described.
        let assertion = resolved.flatMap(context.assertionPreview).map {
            AssertionCheck.run($0, issuer: resolved?.issuer?.value, now: context.clock.instant)
        }
        let checks = storage + [configCheck(profile: profile, resolveError: resolveError)] + settings + caFile + [helpersCheck()]
            + [host.runtimeDirectory(), host.browser()]
            + provider.run(issuer: resolved?.issuer?.value, profile: profile, dpop: resolved?.dpop.value ?? .no,
                           par: resolved?.par.value ?? .auto) + (assertion.map { [$0] } ?? [])
        return Report(profile: profile, checks: checks)
    }

    /// The configuration file: readable, and the profile's part of it valid; and a directory's
    /// profile file that names a profile it lacks (which stops every other command).
    func configCheck(profile: String, resolveError: KCAuthError?) -> DoctorCheck {
        let (id, title) = ("config", "configuration")
        let path = context.settings.path
        do {
            let doc = try context.config()
            _ = try ProfileSettings(doc, profile: profile, path: path)
            if let resolveError, case .createProfileOrChangeFile? = resolveError.remedy { return .fail(id, title, resolveError) }
            let unknown = doc.unknownKeys()
            if !unknown.isEmpty {
                // Never used, so never harmful, but a setting that was meant is not in effect.
                let keys = unknown.count == 1 ? "1 key" : "\(unknown.count) keys"
                var check = DoctorCheck(id, title, .fail, "\(path): \(keys) kcauth does not read",
                                        fix: "correct each key or remove its line (docs/configuration.md lists the keys)")
                check.fact = .unknownConfigKeys(path: path, unknown)
                return check
            }
            let found = doc.profileNames.contains(profile) ? "profile '\(profile)' found" : "no profile '\(profile)' yet"
            return .pass(id, title, "\(path): \(found)")
        } catch {
            return .fail(id, title, KCAuthError.wrapping(error), fix: "fix the file by hand (kcauth never rewrites a file it cannot read)")
        }
    }
}
