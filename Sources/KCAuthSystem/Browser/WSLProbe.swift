import Glibc
import KCAuthCore

/// Reads WSL's detection inputs (`WSLDetection`): the environment and the kernel release file,
/// whose path tests replace.
public struct WSLProbe: Sendable {
    public static let kernelReleasePath = "/proc/sys/kernel/osrelease"
    let path: String

    public init(kernelReleasePath: String = WSLProbe.kernelReleasePath) { path = kernelReleasePath }

    public func isWSL(environment: [String: String]) -> Bool {
        WSLDetection.isWSL(environment: environment, kernelRelease: kernelRelease())
    }

    /// The first 256 bytes of the file, or nil when it cannot be read.
    func kernelRelease() -> String? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var bytes = [UInt8](repeating: 0, count: 256)
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        return String(decoding: bytes[..<n], as: UTF8.self)
    }
}
