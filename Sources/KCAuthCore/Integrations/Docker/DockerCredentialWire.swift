import KCAuthContract

/// The docker credential-helper protocol (github.com/docker/docker-credential-helpers): `get`
/// reads a server URL on stdin and prints `{"ServerURL","Username","Secret"}`; `list` prints
/// `{serverURL: username}`. A server the helper has nothing for is answered with the exact
/// text docker recognises as "not found" on stdout and exit status 1.
public enum DockerCredentialWire {
    public static let notFound = DockerCredentialJSON.notFound

    /// What docker writes to stdin for `get`/`erase`: the server URL, maybe with a newline.
    public static func serverURL(fromInput text: String) -> String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }

    /// The host of what docker sends: `registry.example.com`, `registry.example.com:5000`,
    /// `https://registry.example.com/v1/`.
    public static func host(ofServerURL raw: String) -> CredentialHost? {
        var s = Substring(serverURL(fromInput: raw))
        for scheme in ["https://", "http://"] where s.lowercased().hasPrefix(scheme) { s = s.dropFirst(scheme.count) }
        let authority = s.prefix { $0 != "/" }
        guard !authority.contains("@") else { return nil }
        return CredentialHost(String(authority))
    }

    /// The scheme the registry is reached with: the URL's own, else https, which docker uses
    /// for a registry named without one (an "insecure registry" over http is named with it).
    public static func scheme(ofServerURL raw: String) -> String {
        let s = serverURL(fromInput: raw).lowercased()
        guard let colon = s.firstIndex(of: ":"), s[colon...].hasPrefix("://") else { return "https" }
        return String(s[..<colon])
    }

    public static func getAnswer(serverURL: String, username: String, secret: String) -> String {
        DockerCredentialJSON.getAnswer(quotedServerURL: JSONValue.quoted(serverURL), quotedUsername: JSONValue.quoted(username),
                                       quotedSecret: JSONValue.quoted(secret))
    }

    public static func listAnswer(_ entries: [(server: String, username: String)]) -> String {
        JSONValue.fields(entries.map { ($0.server, .string($0.username)) }).compact + "\n"
    }
}
