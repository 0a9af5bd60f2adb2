import KCAuth
import KCAuthCore

/// The testable entry point: argv, environment and console in, exit status out.
public enum KCAuthMain {
    public static let version = "0.1.0"

    /// The program's signals, taken for the whole process (``ProgramSignals``): the first call of
    /// `main`, before any thread exists. Not part of ``run(arguments:environment:console:)``,
    /// which in-process tests call.
    public static func takeSignals() { ProgramSignals.takeOver() }

    public static func run(arguments: [String], environment: [String: String], console: any Console) -> Int32 {
        run(arguments: arguments, console: console) { command in
            Services(environment: EncryptedStoreOptions.environment(environment, for: command), console: console,
                     trace: try TraceOption.sink(command, environment: environment))
        }
    }

    /// The same over a given composition root (in-process tests pass fakes).
    public static func run(arguments: [String], services: Services) -> Int32 {
        run(arguments: arguments, console: services.console) { _ in services }
    }

    static func run(arguments: [String], console: any Console, services makeServices: (ParsedCommand) throws -> Services) -> Int32 {
        var running: (name: String, services: Services)?
        let status = runCommand(arguments: arguments, console: console, services: makeServices, running: &running)
        running?.services.context.trace.emit(TraceEvent("command.end", ("command", .text(running!.name)), ("exit_status", .int(Int(status)))))
        return status
    }

    private static func runCommand(arguments: [String], console: any Console, services makeServices: (ParsedCommand) throws -> Services,
                                   running: inout (name: String, services: Services)?) -> Int32 {
        do {
            switch try ArgumentParser.parse(arguments) {
            case .version:
                console.out("kcauth \(version)\n")
            case .help(let name):
                console.out(name.flatMap(CommandTable.command(named:)).map(HelpText.command) ?? HelpText.general())
            case .run(let command):
                let services = try makeServices(command)
                running = (command.name, services)
                services.context.trace.emit(TraceOption.started(command))
                guard let runner = CommandTable.runner(named: command.name) else {
                    throw KCAuthError(.internal, "no runner for `\(command.name)`")
                }
                try ForwardedSession.check(command.name, services)
                try runner.run(command, services)
            }
            return ExitStatus.success.code
        } catch let reported as ReportedFailure {
            return reported.status.code
        } catch let error as KCAuthError {
            let status = ErrorPresenter.present(error, on: console)
            if let running {
                running.services.context.remindToSignIn().afterFailure(error, caller: running.services.signInCaller(command: running.name))
            }
            return status
        } catch {
            return ErrorPresenter.present(KCAuthError(.internal, "unexpected error: \(error)"), on: console)
        }
    }
}
