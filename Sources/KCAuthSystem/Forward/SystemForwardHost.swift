import Glibc
import KCAuthContract
import KCAuthCore

/// The real ``ForwardHost``: directories under the uid-bound shared directory
/// (``PrivateRunDirectory``), a Unix socket, the stop signals kept (``ProcessSignals``), and `forward.log` in the state
/// directory.
public struct SystemForwardHost: ForwardHost {
    private let logPath: String

    public init(environment: [String: String]) {
        logPath = ContractPaths { environment[$0] }.stateDirectory + "/forward.log"
    }

    /// A signal kept while the forward runs (``ProcessSignals``), taken without waiting; nil
    /// when none came.
    static func takeHeldSignal() -> ProcessSignals.Received? { ProcessSignals.next() }

    public var processID: Int32 { getpid() }

    public func makeDirectory() throws -> String { try PrivateRunDirectory.create(prefix: ForwardRecord.directoryPrefix) }

    public func write(_ record: ForwardRecord, in directory: String) {
        PrivateRunDirectory.write(directory + "/" + ForwardRecord.fileName, record.text)
    }

    public func remove(directory: String, files: [String]) { PrivateRunDirectory.remove(directory, files: files) }

    public func socketPathProblem(_ path: String) -> SocketPathProblem? {
        let directory = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "/"
        var info = stat()
        guard lstat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return .notADirectory(directory) }
        guard info.st_uid == geteuid(), info.st_mode & 0o077 == 0 else { return .notPrivate(directory) }
        guard lstat(path, &info) != 0 else { return .exists(path) }
        return nil
    }

    public func listen(path: String) throws -> any ForwardListener { try SocketForwardListener(path: path) }

    public func holdStopSignals() { ProcessSignals.hold(true) }

    public func stopRequested() -> Bool { Self.takeHeldSignal() != nil }

    public func log(_ line: String) {
        let directory = String(logPath[..<logPath.lastIndex(of: "/")!])
        var prefix = ""
        for part in directory.split(separator: "/") {
            prefix += "/" + part
            mkdir(prefix, 0o700)
        }
        let fd = open(logPath, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = line.utf8CString.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, $0.count - 1) }
    }

    public func liveForwards() -> [ForwardRecord] {
        Self.forwards().filter { kill($0.record.pid, 0) == 0 }.map(\.record).sorted { $0.started < $1.started }
    }

    public func removeOrphans() {
        for forward in Self.forwards() where Self.isOrphan(forward) {
            PrivateRunDirectory.remove(forward.directory, files: Self.files)
        }
    }

    /// Its process is gone (ESRCH: not merely another user's), and nothing answers on its socket
    /// (a process in another pid namespace sharing this directory would).
    static func isOrphan(_ forward: (directory: String, record: ForwardRecord)) -> Bool {
        guard kill(forward.record.pid, 0) != 0, errno == ESRCH else { return false }
        let socket = forward.directory + "/agent.sock"
        return access(socket, F_OK) != 0 || ForwardSocket.tryConnect(socket) != 0
    }

    /// What a forward's directory may hold: its record, its socket, ssh's control socket.
    public static let files = [ForwardRecord.fileName, "agent.sock", "control"]

    /// The forwards whose directories hold a record, live or not.
    static func forwards() -> [(directory: String, record: ForwardRecord)] {
        guard let base = Paths.lockDirectory(), let dir = opendir(base) else { return [] }
        defer { closedir(dir) }
        var found: [(String, ForwardRecord)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let directory = base + "/" + name
            guard name.hasPrefix(ForwardRecord.directoryPrefix),
                  let text = read(directory + "/" + ForwardRecord.fileName), let record = ForwardRecord(text: text) else { continue }
            found.append((directory, record))
        }
        return found
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
