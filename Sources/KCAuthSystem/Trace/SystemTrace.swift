#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract
import KCAuthCore
import Synchronization

/// The real trace sink: one line per event (``TraceLine``) on standard error, or appended to
/// `KCAUTH_DEBUG_FILE` (``TraceFile``), one `write(2)` per line under a lock, so the listener's,
/// libcurl's and the keyring's threads never mix their lines.
public final class SystemTrace: TraceSink {
    private let writer: Mutex<TraceWriter>

    public init(writer: TraceWriter) { self.writer = Mutex(writer) }

    public var isOn: Bool { true }

    public func record(_ event: TraceEvent) {
        let fields = event.lineFields
        writer.withLock { $0.write(event: event.name, fields: fields) }
    }

    /// A trace in `mode`, on standard error, or appended to `file` (created 0600; a link, a
    /// special file or one another user could read or write is refused).
    public static func open(mode: TraceMode, file: String?) throws -> SystemTrace {
        guard let file, !file.isEmpty else { return SystemTrace(writer: TraceWriter(fd: STDERR_FILENO, mode: mode)) }
        switch TraceFile.open(file) {
        case .success(let fd):
            return SystemTrace(writer: TraceWriter(fd: fd, mode: mode))
        case .failure(let refusal):
            throw FileRefusalText.error(.configuration, path: file, refusal, fix: "chmod 600 \(file)")
        }
    }

    /// The trace `KCAUTH_DEBUG` and `KCAUTH_DEBUG_FILE` ask for (a program using the library);
    /// ``NoTrace`` when they ask for none. A value that cannot be used is said once on standard
    /// error, and nothing is traced.
    public static func fromEnvironment(_ environment: [String: String]) -> any TraceSink {
        switch TraceMode.setting(environment: environment[SettingsCatalogue.debug.environment!]) {
        case .off:
            return NoTrace()
        case .refused:
            say("warning: \(SettingsCatalogue.debug.environment!) is neither 1, text nor json: no trace\n")
            return NoTrace()
        case .on(let mode):
            do {
                return try open(mode: mode, file: environment[SettingsCatalogue.debugFile.environment!])
            } catch let error as KCAuthError {
                say("warning: \(error.message): no trace\n")
                return NoTrace()
            } catch {
                return NoTrace()
            }
        }
    }

    private static func say(_ line: String) {
        var text = line
        text.withUTF8 { _ = Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
