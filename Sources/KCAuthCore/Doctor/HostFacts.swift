/// What a bug report needs to know of the machine kcauth runs on, as facts (the CLI phrases
/// them): the operating system as `/etc/os-release` and `uname(2)` say, the program file, and
/// each library kcauth loads at run time as the loaded library says of itself.
public struct HostFacts: Sendable {
    /// One library: its version as it reports it, or why there is none.
    public struct Library: Sendable {
        public var name: String
        /// The library's own answer (`curl_version_info`, `OpenSSL_version`, `zlibVersion`).
        public var version: String?
        /// The file it was loaded from, where the library says nothing of its version.
        public var file: String?
        /// More it says of itself (libcurl's TLS and zlib; GLib's version for libsecret).
        public var details: [(String, String)] = []
        /// Why it could not be loaded (the loader's error). No version, file nor this: this
        /// process has not loaded it (libsecret, loaded only for a profile in the keyring).
        public var unavailable: String?

        public init(name: String, version: String? = nil, file: String? = nil, details: [(String, String)] = [], unavailable: String? = nil) {
            self.name = name
            self.version = version
            self.file = file
            self.details = details
            self.unavailable = unavailable
        }
    }

    /// `/etc/os-release` (os-release(5)), its lines as they are; empty when it cannot be read.
    public var osRelease: String
    /// `uname(2)`: system, release, version, machine.
    public var uname: [String]
    /// The running program (`/proc/self/exe`).
    public var executable: String?
    public var libraries: [Library]

    public init(osRelease: String, uname: [String], executable: String?, libraries: [Library]) {
        self.osRelease = osRelease
        self.uname = uname
        self.executable = executable
        self.libraries = libraries
    }
}
