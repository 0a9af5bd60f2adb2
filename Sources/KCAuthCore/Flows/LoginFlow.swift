/// The two ways `kcauth login` signs in.
public enum LoginFlow: String, Sendable, CaseIterable {
    /// Authorization code + PKCE with a loopback redirect (RFC 8252): needs a browser on this machine.
    case browser
    /// Device authorization grant (RFC 8628): the user signs in on any other device.
    case device
}
