import KCAuthContract
/// Parsing of the profile settings the git and docker helpers read (`hosts`, `username`).
/// They come from a file the user edits: checked here, so a bad value is one clear error and
/// never reaches a protocol line.
public enum IntegrationSettings {
    public static let defaultUsername = HelperRule.defaultUsername

    static func hosts(_ raw: String?, where place: String) throws -> [CredentialHost]? {
        guard let raw else { return nil }
        return try raw.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map { word in
            guard let host = CredentialHost(String(word)) else {
                throw KCAuthError(.configuration, "\(place): hosts: '\(Sanitize.oneLine(String(word), limit: 80))' is not a host or host:port")
            }
            return host
        }
    }

    static func username(_ raw: String?, where place: String) throws -> String? {
        guard let raw else { return nil }
        guard raw.utf8.count <= 256, GitCredentialAnswer.isLineSafe(raw) else {
            throw KCAuthError(.configuration, "\(place): username must be one line of printable characters")
        }
        return raw
    }
}
