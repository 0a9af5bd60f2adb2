import KCAuthCrypto

/// A P-256 test key for signed client assertions (made with `openssl ecparam -genkey`; TEST ONLY)
/// and its public JWK as jwcrypto 1.6.1 computed it from the same PEM.
public enum ClientKeyFixtures {
    public static let p256PEM = """
-----BEGIN EC PRIVATE KEY-----
MHcCAQEEIOtd6reb8I+jQ09QG86i13nMTKUXIS+GBKx7qfo6s1DNoAoGCCqGSM49
AwEHoUQDQgAEg7x3lScNG6h59ehM84Vssw5jQPphQBIPJ8LAkRNsUbw6l3daiVzh
hsjwX9mUbv/x1L7EYF2mMW0DzK5msWgsaQ==
-----END EC PRIVATE KEY-----
"""

    public static let p256JWK = JWK(kty: "EC", crv: "P-256", x: "g7x3lScNG6h59ehM84Vssw5jQPphQBIPJ8LAkRNsUbw", y: "Opd3Wolc4YbI8F_ZlG7_8dS-xGBdpjFtA8yuZrFoLGk")
}
