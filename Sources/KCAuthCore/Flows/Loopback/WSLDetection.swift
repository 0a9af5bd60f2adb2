/// Windows Subsystem for Linux: there the browser is a Windows program, reached
/// through `wslview` or Windows' own launchers, and it can reach kcauth's 127.0.0.1 listener
/// (WSL2 forwards localhost), so the browser flow works without any display variable.
public enum WSLDetection {
    /// WSL sets `WSL_DISTRO_NAME` in every process it starts; a shell that lost it (`env -i`,
    /// sudo) still runs a kernel whose release names Microsoft (`…-microsoft-standard-WSL2`, and
    /// `…-Microsoft` on WSL1), read from /proc/sys/kernel/osrelease.
    public static func isWSL(environment: [String: String], kernelRelease: String?) -> Bool {
        if let name = environment["WSL_DISTRO_NAME"], !name.trimmingWhitespace().isEmpty { return true }
        return kernelRelease?.lowercased().contains("microsoft") ?? false
    }
}
