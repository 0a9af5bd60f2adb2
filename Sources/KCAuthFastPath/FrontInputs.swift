#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract

/// The real inputs of the front: the process environment, files read under the contract's
/// rules, the clock.
enum FrontInputs {
    static func environment(_ name: String) -> String? { getenv(name).map { ASCIIText.string(cString: $0) } }

    /// A directory is checked (its outcome carries no bytes); a file is read.
    static func read(_ path: String, _ rule: FileRule) -> ContractFile.Outcome {
        var info = stat()
        if rule == .secret, lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            return ContractFile.checkDirectory(path, rule: rule, mayBeAbsent: false)
        }
        return ContractFile.read(path, rule: rule)
    }

    /// The nearest `.kcauth-profile` from the working directory up (KCAuthContract's rule).
    static func directoryProfile() -> DirectoryProfile.Finding {
        DirectoryProfile.find(from: DirectoryProfile.workingDirectory())
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
