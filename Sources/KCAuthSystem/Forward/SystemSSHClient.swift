import Glibc
import KCAuthCore

/// The real ``SSHClient``: `ssh` from `PATH` (``ChildProcess``), waited for while the stop
/// signals kept for the forward (``ProcessSignals``, so that it always cleans up) are passed on:
/// SIGTERM and SIGHUP reach ssh, and so does any other signal a process sent to kcauth; one
/// from the terminal (Ctrl-C, Ctrl-\) reached ssh already and is dropped.
public struct SystemSSHClient: SSHClient {
    public init() {}

    public func run(_ arguments: [String], environment: [String: String], captureOutput: Bool, quiet: Bool, seconds: Int?,
                    whileWaiting: (() -> Void)?) throws -> (status: Int32, output: [UInt8]) {
        let child = try ChildProcess.start(["ssh"] + arguments, environment: environment, captureOutput: captureOutput, quiet: quiet)
        let deadline = seconds.map { ForwardSocket.monotonic() + Double($0) }
        var status: Int32
        while true {
            if let exited = child.poll() { status = exited; break }
            while let pending = SystemForwardHost.takeHeldSignal() {
                if !pending.byTerminal || pending.signal == SIGTERM || pending.signal == SIGHUP { kill(child.pid, pending.signal) }
            }
            if let deadline, ForwardSocket.monotonic() > deadline { kill(child.pid, SIGTERM) }
            if let whileWaiting { whileWaiting() } else { usleep(50_000) }
        }
        let output = captureOutput ? child.readOutput(limit: 4096, seconds: 5) ?? [] : []
        return (status, output)
    }

    public func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    public func waitUntilGone(_ path: String, milliseconds: Int) {
        for _ in 0..<max(1, milliseconds / 20) where exists(path) { usleep(20_000) }
    }
}
