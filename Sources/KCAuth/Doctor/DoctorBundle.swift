import KCAuthContract
import KCAuthCore

/// `doctor --bundle`: what a bug report needs beyond doctor's checks — the machine's facts, the
/// provider's discovery document as it was sent, and one command's `--debug` trace — and the
/// archive written where the person said (``BundleHost``). The front end runs the checks and
/// the command and phrases every part; nothing here holds a secret's value: the trace shows
/// secrets redacted (``Secret``) and the discovery document is public metadata.
public struct DoctorBundle: Sendable {
    let context: KCAuthContext

    public init(context: KCAuthContext) { self.context = context }

    public var host: any BundleHost { context.adapters.bundleHost }

    /// The discovery document (OpenID Connect Discovery 1.0 §4) as the provider sent it, or
    /// why there is none: no issuer configured, or the request failed. No validation: a
    /// document doctor finds wrong is exactly what the report must show.
    public func discoveryDocument(issuer rawIssuer: String?, caFile: String?) -> Result<[UInt8], KCAuthError> {
        guard let rawIssuer else { return .failure(KCAuthError(.configuration, "no issuer is configured")) }
        do {
            let issuer = try IssuerPolicy.normalizedIssuer(rawIssuer)
            var request = HTTPRequest(method: .get, url: WireText(issuer + "/.well-known/openid-configuration"),
                                      headers: [("Accept", "application/json")])
            request.answerHoldsNoSecret = true
            let response = try context.http(caFile: caFile).transport.send(request)
            guard response.status == 200 else {
                return .failure(KCAuthError(.provider, "\(issuer)/.well-known/openid-configuration answered HTTP \(response.status)"))
            }
            return .success(response.body)
        } catch {
            return .failure(KCAuthError.wrapping(error))
        }
    }

    /// Runs `body` with a text trace (``Adapters/trace(_:file:)``) into a file of a private
    /// (0700) directory, and gives its result and the trace's bytes; the directory is removed.
    public func traced<T>(_ body: (any TraceSink) throws -> T) throws -> (result: T, trace: [UInt8]) {
        let directory = try host.privateDirectory()
        defer { host.remove(directory) }
        let file = directory + "/trace.log"
        // Ended by a signal meanwhile, kcauth leaves no trace directory behind either.
        return try ProgramSignals.onEnding({ [host] in host.remove(directory) }) {
            let result = try body(try Adapters.trace(.text, file: file))
            return (result, try host.read(file))
        }
    }
}

