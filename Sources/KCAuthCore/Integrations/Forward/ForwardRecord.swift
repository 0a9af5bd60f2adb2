/// A live forward, as `status` lists it: a small file in the forward's private directory, with
/// the pid of the kcauth that serves it. A record whose process is gone (killed with SIGKILL) is
/// not live (``ForwardHost/liveForwards()``).
public struct ForwardRecord: Sendable, Equatable {
    /// The record's file name in its directory, and the directory's name prefix.
    public static let fileName = "forward"
    public static let directoryPrefix = "forward-"

    public var pid: Int32
    public var destination: String
    public var profiles: [String]
    public var scope: String?
    public var started: String

    public var text: String {
        "pid=\(pid)\ndestination=\(destination)\nprofiles=\(profiles.joined(separator: " "))\nscope=\(scope ?? "")\nstarted=\(started)\n"
    }

    public init(pid: Int32, destination: String, profiles: [String], scope: String?, started: String) {
        self.pid = pid
        self.destination = destination
        self.profiles = profiles
        self.scope = scope
        self.started = started
    }

    public init?(text: String) {
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        guard let pid = fields["pid"].flatMap({ Int32($0) }), let destination = fields["destination"] else { return nil }
        self.pid = pid
        self.destination = destination
        profiles = (fields["profiles"] ?? "").split(separator: " ").map(String.init)
        scope = fields["scope"].flatMap { $0.isEmpty ? nil : $0 }
        started = fields["started"] ?? ""
    }
}
