#if canImport(Glibc)
import Glibc
#endif

/// Replaces the front with the full program: same argv (argv[0] included, so the full program
/// sees the name it was invoked as — `kcauth`, or a credential helper's symlink name), same
/// environment, same open descriptors (stdin/stdout/stderr, and anything a caller passed). Only
/// returns on failure, with exit status 1 after one line on stderr.
public enum HandOff {
    public static func toFullProgram() -> Int32 {
        guard let front = ownPath() else {
            return fail("cannot find the kcauth program file (/proc/self/exe: \(TrustedExecutable.describe(errno)))")
        }
        switch FullProgram.locate(front: front) {
        case .failure(.missing(let paths)):
            return fail("the full kcauth program is missing (looked for \(paths.joined(separator: " and "))); reinstall kcauth")
        case .failure(.unsafe(let path, let reason)):
            return fail("refusing to run \(path): \(reason)")
        case .success(let path):
            // execv by path, not fexecve: the checks above make the path stable, and the kernel
            // names the process after the file (`ps`, `/proc/PID/comm`), where an fd would give "3".
            execv(path, CommandLine.unsafeArgv)
            return fail("cannot run \(path): \(TrustedExecutable.describe(errno))")
        }
    }

    /// The kernel's canonical path of this executable (symlinks such as `git-credential-kcauth`
    /// resolved), so the full program is found next to the real file, not the link.
    static func ownPath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0, n < buffer.count - 1 else { return nil }
        var path = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // A binary replaced while running (an upgrade) reads "/usr/bin/kcauth (deleted)".
        if path.hasSuffix(" (deleted)") { path.removeLast(" (deleted)".count) }
        return path.hasPrefix("/") ? path : nil
    }

    static func fail(_ message: String) -> Int32 {
        StandardError.write("error: " + message + "\n")
        return 1
    }
}
