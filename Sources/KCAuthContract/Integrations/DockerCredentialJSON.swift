/// kcauth's answers to docker (github.com/docker/docker-credential-helpers), the same bytes from
/// both programs: `get`'s `{"ServerURL","Username","Secret"}`, and the exact text docker takes
/// for "nothing here" (with exit status 1).
public enum DockerCredentialJSON {
    public static let notFound = "credentials not found in native keychain"

    /// `get`'s answer and its newline, from the three values already quoted as JSON strings
    /// (each program quotes its own way: the front plain ASCII only, leaving the rest to the
    /// full program, which escapes).
    public static func getAnswer(quotedServerURL: String, quotedUsername: String, quotedSecret: String) -> String {
        "{\"ServerURL\":" + quotedServerURL + ",\"Username\":" + quotedUsername + ",\"Secret\":" + quotedSecret + "}\n"
    }
}
