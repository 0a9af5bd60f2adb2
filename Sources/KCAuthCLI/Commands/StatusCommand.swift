import KCAuth
import KCAuthCore

/// `kcauth status`: every profile at a glance; the selected profile decides the exit status.
enum StatusCommand: Command {
    static let spec = CommandSpec(
        "status", summary: "Show every profile's sign-in state",
        description: """
        Lists every profile of the configuration file with its issuer, user, state (valid; \
        access token expired but refreshable; login required), storage, and the command that \
        fixes a broken one. Reads the stored sessions only: no network. Exits with status 0 \
        when the selected profile (--profile, KCAUTH_PROFILE, else the default) is usable, \
        whatever the others' state; 4 when it needs a login; 5 when its storage cannot be read. \
        The text report also lists the live forwards of `kcauth ssh` and `kcauth forward-agent` \
        (destination, profiles, scope). On the remote side of a forward it describes the forward \
        instead: the laptop's destination, the profiles lent and their scope.
        """,
        options: [CommandTable.profile, SessionOutput.option],
        examples: ["kcauth status", "kcauth status -o json | jq '.profiles[] | {profile, state}'"])

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        if try ForwardedSession.status(command, services) { return }
        let selected = try services.resolve(command)
        let report = try services.context.status(selected: selected)
        let now = services.context.clock.instant
        switch SessionOutput(command) {
        case .text: services.console.out(StatusOutput.text(report, now: now, selectedBy: ProfileOrigin.words(selected.profile))
                                         + forwards(services.context.liveForwards()))
        case .json: services.console.out(StatusOutput.json(report, now: now))
        }
        // The report says what is wrong and how to fix it; the exit status says whether the
        // selected profile works (no second message after the report).
        switch report.selected.state {
        case .valid, .refreshable:
            return
        case .loginRequired:
            throw ReportedFailure(status: .loginRequired)
        case .storageUnavailable(let error):
            throw ReportedFailure(status: ExitStatus.of(error.code))
        }
    }

    /// The live forwards, for the text report (none: nothing is added).
    static func forwards(_ records: [ForwardRecord]) -> String {
        guard !records.isEmpty else { return "" }
        return "\nForwarded over ssh (kcauth ssh, kcauth forward-agent):\n" + records.map { record in
            "  \(ForwardLog.field(record.destination)): \(record.profiles.joined(separator: ", "))"
                + (record.scope.map { " (scope \(ForwardLog.field($0)))" } ?? "") + ", since \(record.started), pid \(record.pid)\n"
        }.joined()
    }
}
