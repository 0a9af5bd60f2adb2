import Glibc
import KCAuth
import KCAuthContract
import KCAuthCore
import KCAuthSystem

/// The laptop's side of `kcauth ssh`: answers on the forward's socket, one connection at a time,
/// for the profiles the user forwarded and nothing else. An answer is an access token (an ID
/// token when asked), built by ``ForwardMessage`` from an ``IssuedToken``, which holds no refresh
/// token or client credential. Each profile is resolved again for every request, so a sign-in
/// on the laptop while the connection stays up is used at once.
struct ForwardAgent {
    let listener: Int32
    let profiles: [String]
    let scope: String?
    let destination: String
    let services: Services
    let log: ForwardLog

    /// A request must arrive this soon after the connection.
    static let requestMilliseconds = 5_000

    /// Answers one connection, if one arrives within `milliseconds`.
    func serveOne(milliseconds: Int32) {
        guard let fd = ForwardSocket.accept(listener, milliseconds: milliseconds) else { return }
        defer { close(fd) }
        // Only this user's processes (ssh, which forwards the remote end) may ask; the socket is
        // 0600 in a 0700 directory too, and the kernel's word on the peer is checked besides.
        guard ForwardSocket.peerUID(fd) == geteuid() else { return }
        guard let line = ForwardSocket.readLine(fd, milliseconds: Self.requestMilliseconds),
              let request = ForwardMessage.Request(line: line) else {
            ForwardSocket.writeLine(fd, ForwardMessage.failure(KCAuthError(.usage, "unreadable request"), profile: nil), milliseconds: 5_000)
            return
        }
        ForwardSocket.writeLine(fd, answer(request), milliseconds: 10_000)
    }

    /// The answer line, logged (names only).
    func answer(_ request: ForwardMessage.Request) -> String {
        let now = services.context.clock.instant
        var username: String?
        var routed: String?
        if let text = request.host {
            // A credential helper: the forwarded profile whose `hosts` lists the server, by the
            // laptop's configuration and the same rule as the local helpers.
            guard let host = CredentialHost(text),
                  let helper = try? HelperProfiles.load(services),
                  let name = HelperRule.profile(for: host.rule, picked: request.profile,
                                                profiles: helper.profiles.filter { profiles.contains($0.name) }
                                                    .map { ($0.name, ($0.settings.hosts ?? []).map(\.rule)) }) else {
                log.append(destination: destination, profile: request.profile ?? "-", scope: scope,
                           outcome: "refused=host-not-listed host=\(ForwardLog.field(text))", now: now)
                return ForwardMessage.notServed
            }
            username = helper.username(of: name)
            routed = name
        }
        let name = routed ?? request.profile ?? profiles[0]
        guard profiles.contains(name) else {
            log.append(destination: destination, profile: name, scope: scope, outcome: "refused=not-forwarded", now: now)
            return ForwardMessage.failure(KCAuthError(.usage, "profile '\(Sanitize.oneLine(name, limit: 80))' is not forwarded to this host "
                                                      + "(forwarded: \(profiles.joined(separator: ", ")))"), profile: name)
        }
        do {
            let profile = try services.context.resolve(SettingsFlags(profile: name))
            let token = try services.context.getToken(profile).run(GetToken.Request(profile: name, minValid: request.minValid,
                                                                                   scope: scope, idToken: request.idToken))
            if request.idToken, token.idToken == nil {
                throw KCAuthError(.loginRequired, "the session of profile '\(name)' has no ID token")
            }
            log.append(destination: destination, profile: name, scope: scope,
                       outcome: "answer=" + (request.idToken ? "access_token,id_token" : "access_token"), now: now)
            return ForwardMessage.answer(token, profile: name, idToken: request.idToken, username: username)
        } catch {
            let failure = KCAuthError.wrapping(error)
            log.append(destination: destination, profile: name, scope: scope, outcome: "error=\(failure.code.rawValue)", now: now)
            return ForwardMessage.failure(failure, profile: name)
        }
    }
}
