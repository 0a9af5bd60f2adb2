import Glibc

// Test support for the network adapter tests (kept in a `Curl*Tests.swift` file by the repo's
// file-ownership convention). Names carry a `Net` prefix so they cannot clash with other
// helpers in this test target.

/// A child process started with `posix_spawnp`, its stdout on a pipe. Stopped by PID.
final class NetChildProcess {
    let pid: pid_t
    private let stdoutFD: Int32

    /// `quiet` sends the child's stderr to /dev/null (openssl's progress dots).
    init(_ argv: [String], quiet: Bool = false) throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw NetTestError("pipe failed") }
        // CLOEXEC on both ends: other tests' children must not inherit them and keep the pipe open.
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        if quiet { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        // Swift's worker threads block most signals and a child inherits the mask: without a
        // reset, python would never act on `stop()`'s SIGTERM and waitpid would hang.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &signals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid = pid_t()
        let cArgv = argv.map { strdup($0) } + [nil]
        defer { cArgv.forEach { free($0) } }
        let result = posix_spawnp(&pid, argv[0], &actions, &attributes, cArgv, environ)
        Glibc.close(fds[1])
        guard result == 0 else {
            Glibc.close(fds[0])
            throw NetTestError("cannot start \(argv[0]): \(String(cString: strerror(result)))")
        }
        self.pid = pid
        stdoutFD = fds[0]
    }

    /// One line of the child's stdout, waiting at most `timeout` seconds.
    func readLine(timeout: Double = 15) -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            var pfd = pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32(timeout * 1000)) > 0, read(stdoutFD, &byte, 1) == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
    }

    func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        Glibc.close(stdoutFD)
    }

    /// Runs `argv` to completion and returns its exit status.
    @discardableResult
    static func run(_ argv: [String]) throws -> Int32 {
        let child = try NetChildProcess(argv, quiet: true)
        var status: Int32 = 0
        _ = waitpid(child.pid, &status, 0)
        Glibc.close(child.stdoutFD)
        return (status >> 8) & 0xff
    }
}

struct NetTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A private temporary directory, removed by `remove()`.
struct NetTempDir {
    let path: String

    init() throws {
        var template = Array("/tmp/kcauth-net-test-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw NetTestError("mkdtemp failed")
        }
        path = String(cString: made)
    }

    func file(_ name: String) -> String { "\(path)/\(name)" }

    func write(_ name: String, _ text: String, mode: mode_t = 0o600) throws {
        let fd = open(file(name), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw NetTestError("cannot write \(name)") }
        defer { Glibc.close(fd) }
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ Glibc.write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
            throw NetTestError("short write to \(name)")
        }
    }

    /// The file's bytes, or nil when it does not exist.
    func read(_ name: String) -> [UInt8]? {
        let fd = open(file(name), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return result }
            result += chunk[..<count]
        }
    }

    /// Polls for `name` to appear (written by a child that is not waited for).
    func waitFor(_ name: String, timeout: Double = 10) -> [UInt8]? {
        for _ in 0..<Int(timeout * 50) {
            if let bytes = read(name) { return bytes }
            usleep(20_000)
        }
        return nil
    }

    func remove() { _ = try? NetChildProcess.run(["rm", "-rf", path]) }
}

/// A small HTTP(S) server in a python3 child on 127.0.0.1:0 that prints its port.
struct NetHTTPServer {
    let process: NetChildProcess
    let port: Int

    var origin: String { "http://127.0.0.1:\(port)" }

    /// `certificate` and `key` (PEM paths) switch it to HTTPS.
    init(certificate: String? = nil, key: String? = nil) throws {
        var argv = ["python3", "-c", Self.script]
        if let certificate, let key { argv += [certificate, key] }
        process = try NetChildProcess(argv)
        guard let line = process.readLine(), let port = Int(line) else {
            process.stop()
            throw NetTestError("the python test server did not report its port")
        }
        self.port = port
    }

    func stop() { process.stop() }

    static let script = #"""
import http.server, ssl, sys, time
class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args): pass
    def reply(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers: self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def do_GET(self):
        if self.path == "/hello":
            self.reply(200, b"hello world", [("X-Test", "Yes"), ("Content-Type", "text/plain")])
        elif self.path.startswith("/status/"):
            code = int(self.path[8:])
            self.reply(code, b"status %d" % code)
        elif self.path == "/sleep":
            time.sleep(5)
            self.reply(200, b"late")
        elif self.path == "/redirect":
            self.reply(302, b"moved", [("Location", "/hello")])
        elif self.path == "/headers":
            text = "".join("%s=%s\n" % (k.lower(), v) for k, v in self.headers.items())
            self.reply(200, text.encode())
        else:
            self.reply(404, b"no such path")
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.reply(200, body, [("X-Got-Content-Type", self.headers.get("Content-Type", "")),
                               ("X-Got-Expect", self.headers.get("Expect", "none"))])
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
if len(sys.argv) > 2:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[1], sys.argv[2])
    server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
"""#
}
