/// Which profiles were last signed in with their session kept in memory only (`login` with the
/// memory store): a later command that finds no session for such a profile says so, rather
/// than blaming the store it looked in (a keyring that is not there, say). A note of the
/// profile's name, never a token.
public protocol MemorySignIns: Sendable {
    /// The profile's last sign-in kept its session in memory only.
    func note(profile: String)
    /// Whether the profile's last sign-in kept its session in memory only.
    func noted(profile: String) -> Bool
    /// The profile's session is stored again, or signed out: the note goes.
    func forget(profile: String)
}
