import KCAuthCrypto

/// OpenSSL's CSPRNG is the production random source.
extension SecureRandom: RandomSource {}
