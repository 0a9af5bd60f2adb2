import KCAuth
import KCAuthCore

extension Services {
    /// Who the command runs for (``SignInCaller``): the library decides who may sign in and who
    /// gets a reminder; the front end says which command runs and whether stderr is a terminal.
    func signInCaller(command: String) -> SignInCaller {
        context.signInCaller(stderrIsTerminal: console.stderrIsTTY,
                             credentialHelper: command == GitCredentialCommand.spec.name || command == DockerCredentialCommand.spec.name)
    }
}
