import Glibc
import KCAuthContract

/// A live forward, as `kcauth status` lists it: a small file in the forward's private directory
/// (under ``ContractPaths/sharedDirectory(uid:)``, found from the uid alone), with the pid of the
/// `kcauth ssh` that serves it. A record whose process is gone (killed with SIGKILL) is not live.
struct ForwardRecord: Equatable {
    static let fileName = "forward"
    static let directoryPrefix = "forward-"

    var pid: Int32
    var destination: String
    var profiles: [String]
    var scope: String?
    var started: String

    var text: String {
        "pid=\(pid)\ndestination=\(destination)\nprofiles=\(profiles.joined(separator: " "))\nscope=\(scope ?? "")\nstarted=\(started)\n"
    }

    init(pid: Int32, destination: String, profiles: [String], scope: String?, started: String) {
        self.pid = pid
        self.destination = destination
        self.profiles = profiles
        self.scope = scope
        self.started = started
    }

    init?(text: String) {
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

    /// The live forwards of this user, oldest first.
    static func live() -> [ForwardRecord] {
        guard let base = ContractPaths.sharedDirectory(), let dir = opendir(base) else { return [] }
        defer { closedir(dir) }
        var records: [ForwardRecord] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix(directoryPrefix), let text = read(base + "/" + name + "/" + fileName),
                  let record = ForwardRecord(text: text), kill(record.pid, 0) == 0 else { continue }
            records.append(record)
        }
        return records.sorted { $0.started < $1.started }
    }

    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        return n > 0 ? String(decoding: buffer[..<n], as: UTF8.self) : nil
    }
}
