/// Why a ``CommandLauncher`` could not start or become the command, with the exit status `env`,
/// `nice` and the shells give for it (POSIX, "Utility Description Defaults"): 127 when no such
/// command was found, 126 when one was found but could not be run. A script tells "kcauth could
/// not start it" from "it ran and failed" the way it does for any other launcher.
public struct CommandStartFailure: Error, Sendable {
    public var error: KCAuthError
    public var status: Int32

    public static let notFound: Int32 = 127
    public static let cannotRun: Int32 = 126

    public init(_ error: KCAuthError, status: Int32) {
        self.error = error
        self.status = status
    }
}
