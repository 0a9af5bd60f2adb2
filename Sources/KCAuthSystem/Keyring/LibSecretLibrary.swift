internal import CLibSecret
import KCAuthCore

/// libsecret is loaded on first use, not at start-up (see CLibSecret.h).
enum LibSecretLibrary {
    static func load() throws {
        guard kc_secret_load() == 1 else {
            throw KCAuthError(.storageUnavailable, "cannot load libsecret: \(String(cString: kc_secret_load_error()))",
                              hint: "install the libsecret-1-0 package")
        }
    }
}
