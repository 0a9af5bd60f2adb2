/// One line of `kcauth doctor`: what was checked, how it went, and what to do about it.
public struct DoctorCheck: Sendable, Equatable {
    public enum Status: String, Sendable {
        case pass
        case fail
        /// Does not apply here (the keyring when the session lives in a file, the provider when
        /// no issuer is configured), or could not be tried because a check it needs failed.
        case skip
    }

    /// A stable identifier for `-o json` and scripts, e.g. `secret-service`.
    public var id: String
    /// A short name for people, e.g. "Secret Service".
    public var title: String
    public var status: Status
    /// What was found, in one line.
    public var detail: String
    /// The next step when it failed, in words that need no front end's vocabulary.
    public var fix: String?
    /// The next step when it failed, as a fact the front end phrases (a flag to pass, a
    /// command to run); used when there is no `fix`.
    public var remedy: KCAuthError.Remedy?
    /// What was found, as a fact the front end phrases (it names its commands); `detail` is then
    /// the same in neutral words.
    public var fact: Fact?

    public enum Fact: Sendable, Equatable {
        /// The kernel keyring works: an unlocked encrypted store stays open for every process.
        case kernelKeyringWorks
        /// There is no encrypted store yet: a sign-in with it creates it.
        case storeNotCreated
        case store(EncryptedStoreState)
        /// Keys of the configuration file at `path` that kcauth does not read (never used).
        case unknownConfigKeys(path: String, [UnknownConfigKey])
    }

    public init(_ id: String, _ title: String, _ status: Status, _ detail: String, fix: String? = nil,
                remedy: KCAuthError.Remedy? = nil) {
        self.id = id
        self.title = title
        self.status = status
        self.detail = detail
        self.fix = fix
        self.remedy = remedy
    }

    public static func pass(_ id: String, _ title: String, _ detail: String, fact: Fact? = nil) -> DoctorCheck {
        var check = DoctorCheck(id, title, .pass, detail)
        check.fact = fact
        return check
    }

    public static func skip(_ id: String, _ title: String, _ detail: String) -> DoctorCheck {
        DoctorCheck(id, title, .skip, detail)
    }

    /// A failure explained by a `KCAuthError`: its message, and its hint (else its remedy) as
    /// the fix.
    /// `remedy`: what fixes it when doctor knows better than the error (its own checks say more).
    public static func fail(_ id: String, _ title: String, _ error: KCAuthError, fix: String? = nil,
                            remedy: KCAuthError.Remedy? = nil) -> DoctorCheck {
        DoctorCheck(id, title, .fail, Sanitize.oneLine(error.message), fix: remedy == nil ? fix ?? error.hint : fix, remedy: remedy ?? error.remedy)
    }
}

extension Array where Element == DoctorCheck {
    /// Doctor exits 0 only when nothing failed; a skipped check is not a failure.
    public var allPassed: Bool { !contains { $0.status == .fail } }
}
