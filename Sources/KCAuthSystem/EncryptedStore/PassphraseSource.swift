#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract
import KCAuthCrypto
import KCAuthCore

/// Where the encrypted store's passphrase comes from: a file for CI and services
/// (`--passphrase-file`, `KCAUTH_PASSPHRASE_FILE`: never argv or the environment themselves,
/// which other processes can read), else a person at the terminal, asked with echo off.
public struct PassphraseSource: Sendable {
    public var file: String?

    public init(file: String?) { self.file = file }

    public init(environment: [String: String]) {
        let path = environment["KCAUTH_PASSPHRASE_FILE"] ?? ""
        self.init(file: path.isEmpty ? nil : path)
    }

    /// A person can answer: standard input and standard error are terminals.
    public var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1 }

    /// The passphrase in `file`: its first line. The file must be a regular file owned by you (or
    /// root) that group and others cannot read or write, like an SSH private key.
    public func readFile(_ path: String) throws -> [UInt8] {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw KCAuthError(.storageUnavailable, "cannot read the passphrase file \(path): \(String(cString: strerror(errno)))")
        }
        let mode = info.st_mode & 0o777
        guard info.st_uid == geteuid() || info.st_uid == 0 else {
            throw KCAuthError(.storageUnavailable, "refusing to use the passphrase file \(path): it is owned by uid \(info.st_uid), not by you",
                              hint: "use a file of your own with mode 0600")
        }
        guard mode & 0o077 == 0 else {
            throw KCAuthError(.storageUnavailable,
                              "refusing to use the passphrase file \(path): it is accessible to group or others (mode \(PrivateFile.octal(mode)))",
                              hint: "`chmod 600 \(path)`")
        }
        switch ContractFile.read(path, rule: .credential) {
        case .bytes(var bytes):
            defer { Scrypt.wipeBytes(&bytes) }
            let line = Array(bytes.prefix { $0 != 0x0A })
            let trimmed = line.last == 0x0D ? Array(line.dropLast()) : line
            guard !trimmed.isEmpty else {
                throw KCAuthError(.storageUnavailable, "the passphrase file \(path) is empty")
            }
            return trimmed
        case .absent:
            throw KCAuthError(.storageUnavailable, "cannot read the passphrase file \(path): it does not exist")
        case .refused(let at, let refusal):
            throw FileRefusalText.error(.storageUnavailable, path: at, refusal, fix: "`chmod 600 \(at)`")
        }
    }

    /// Asks on the terminal with echo off; nil at end of input or without a terminal.
    public func ask(_ prompt: String) -> [UInt8]? {
        guard isInteractive else { return nil }
        var saved = termios()
        let haveTermios = tcgetattr(STDIN_FILENO, &saved) == 0
        if haveTermios {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            quiet.c_lflag |= tcflag_t(ECHONL)
            _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        }
        defer { if haveTermios { var restore = saved; _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &restore) } }
        // Ended by a signal at the prompt (Ctrl-C, a supervisor's SIGTERM), kcauth must not leave
        // the terminal without echo: the shell after it would take the user's typing unseen.
        let restoreOnEnding: @Sendable () -> Void = { [saved] in
            guard haveTermios else { return }
            var restore = saved
            _ = tcsetattr(STDIN_FILENO, TCSANOW, &restore)
            Self.say("\n")
        }
        return ProcessSignals.onEnding(restoreOnEnding, waitsForAPerson: true) {
            Self.say(prompt)
            var line: [UInt8] = []
            var byte: UInt8 = 0
            while true {
                let n = read(STDIN_FILENO, &byte, 1)
                if n < 0, errno == EINTR { continue }
                if n <= 0 { if line.isEmpty { return nil } else { break } }
                if byte == 0x0A { break }
                if line.count < 1024 { line.append(byte) }
            }
            if line.last == 0x0D { line.removeLast() }
            return line
        }
    }

    public static func say(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
