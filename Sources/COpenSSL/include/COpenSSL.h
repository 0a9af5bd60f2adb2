// COpenSSL: the OpenSSL 3 libcrypto surface KCAuthCrypto needs, loaded on first use with dlopen.
//
// Why dlopen: linked, libcrypto.so.3 is mapped and relocated at every kcauth start (≈3,200 of the
// ≈5,200 symbol relocations the dynamic loader did for `kcauth token`, docs/performance.md),
// although `kcauth token` with a valid token never computes a hash or verifies a signature.
// Loaded lazily, it costs nothing until login, refresh or whoami need it.
//
// The OpenSSL headers are included for their types and constants only; nothing here links
// libcrypto, so calling an OpenSSL function directly from Swift fails at link time. Every `kc_`
// function loads the library once (thread-safe) and returns its failure value (NULL, 0 or -1)
// when it cannot be loaded; kc_crypto_load_error() then says why. The loader's function table is
// declared with `__typeof__` of the real prototypes, so the compiler checks every signature
// (Tests/Integration/test_abi.py checks the symbol names against the real library).
//
// The helpers below the plain wrappers exist because the same code written in Swift is unsafe
// or impossible; see /work/shared/notes/swift-c-interop.md §3 and §4.
#ifndef KC_COPENSSL_H
#define KC_COPENSSL_H

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <stddef.h>
#include <stdint.h>

// 1 when libcrypto.so.3 is loaded and every function is bound, else 0.
int kc_crypto_load(void);
const char *kc_crypto_load_error(void);

// Plain wrappers with OpenSSL's signatures (and its failure values when the library is missing).
int kc_EVP_Digest(const void *data, size_t count, unsigned char *md, unsigned int *size, const EVP_MD *type, ENGINE *impl);
const EVP_MD *kc_EVP_sha256(void);
const EVP_MD *kc_EVP_sha384(void);
const EVP_MD *kc_EVP_sha512(void);
EVP_MD_CTX *kc_EVP_MD_CTX_new(void);
void kc_EVP_MD_CTX_free(EVP_MD_CTX *ctx);
int kc_EVP_DigestVerifyInit(EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey);
int kc_EVP_DigestVerify(EVP_MD_CTX *ctx, const unsigned char *sig, size_t siglen, const unsigned char *tbs, size_t tbslen);
void kc_EVP_PKEY_free(EVP_PKEY *pkey);
int kc_EVP_PKEY_get_size(const EVP_PKEY *pkey);
int kc_EVP_PKEY_get_bits(const EVP_PKEY *pkey);
int kc_RAND_bytes(unsigned char *buf, int num);
unsigned long kc_ERR_get_error(void);
void kc_ERR_clear_error(void);
void kc_ERR_error_string_n(unsigned long e, char *buf, size_t len);
// The loaded library's own version text (OPENSSL_VERSION: "OpenSSL 3.0.x 1 Jan 2025"), not the
// headers' (a bug report needs what runs); NULL when it cannot be loaded.
const char *kc_OpenSSL_version(int type);

// JWK {"kty":"RSA","n","e"} (RFC 7518 §6.3.1) -> EVP_PKEY, or NULL.
// Why C: OSSL_PARAM_BLD_push_BN keeps the *name* pointer (OSSL_PKEY_PARAM_RSA_N, a string macro)
// until OSSL_PARAM_BLD_to_param; from Swift that name is a temporary C string that dies after the
// push, and EVP_PKEY_fromdata then fails with an empty error queue. Here the names are literals.
EVP_PKEY *kc_rsa_public_key(const unsigned char *n, size_t n_len, const unsigned char *e, size_t e_len);

// JWK {"kty":"EC","crv","x","y"} (RFC 7518 §6.2.1) on P-256 or P-384 -> EVP_PKEY, or NULL. Same
// hazard as above, for the group name and the public-key octet string. OpenSSL rejects a point
// that is not on the curve.
EVP_PKEY *kc_ec_public_key(int curve_bits, const unsigned char *x, const unsigned char *y, size_t coord_len);

// JWS ECDSA signature R || S (RFC 7518 §3.4, two big-endian halves) -> the DER ECDSA-Sig-Value
// OpenSSL verifies. Writes into `out` (capacity `cap`) and returns the DER length, or -1. Why C:
// ECDSA_SIG_set0 takes ownership of the BIGNUMs and i2d_ advances a `unsigned char **`; keeping
// that dance here means no OpenSSL-owned memory ever crosses into Swift.
int kc_ecdsa_raw_to_der(const unsigned char *rs, size_t rs_len, unsigned char *out, size_t cap);

// RSASSA-PSS for PS256/384/512 (RFC 7518 §3.5): MGF1 with the message digest (OpenSSL's default)
// and a salt exactly as long as the digest. Returns 1 on success.
int kc_set_pss_padding(EVP_PKEY_CTX *pctx);

// --- signing (client assertions, RFC 7523) ---------------------------------------------------

int kc_EVP_DigestSignInit(EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey);
int kc_EVP_DigestSign(EVP_MD_CTX *ctx, unsigned char *sigret, size_t *siglen, const unsigned char *tbs, size_t tbslen);
int kc_EVP_PKEY_is_a(const EVP_PKEY *pkey, const char *name);

// The first private key in PEM text (PKCS#8 "PRIVATE KEY", or the traditional "RSA PRIVATE KEY" /
// "EC PRIVATE KEY"), or NULL. An encrypted key fails at once: the passphrase callback refuses
// (OpenSSL's default one would prompt on the terminal). Why C: the BIO and the callback's function
// pointer stay on this side; Swift gets only the key.
EVP_PKEY *kc_private_key_from_pem(const unsigned char *pem, size_t len);

// The JWS curve size of an EC key: 256 for P-256, 384 for P-384, else 0 (secp256k1 is 256 bits
// too, so the bit count alone does not say P-256).
int kc_ec_curve_bits(const EVP_PKEY *pkey);

// DER ECDSA-Sig-Value (what OpenSSL signs) -> JWS R || S, each half `coord_len` bytes, big-endian,
// left-padded (RFC 7518 §3.4). Writes 2 * coord_len bytes into `out`; returns 1 on success. Why C:
// the same ownership dance as kc_ecdsa_raw_to_der, in reverse.
int kc_ecdsa_der_to_raw(const unsigned char *der, size_t der_len, unsigned char *out, size_t coord_len);

// --- the encrypted session store (EncryptedSecretStore) ------------------------------------------

// AES-256-GCM with a 12-byte nonce and a 16-byte tag over `aad` and `in` (RFC 5116 AEAD_AES_256_GCM).
// Seal writes `in_len` bytes of ciphertext to `out` and the tag to `tag`; open checks the tag and
// writes the plaintext to `out` only if it verifies. Both return 1 on success, 0 on failure (for
// open: a wrong key, a changed byte anywhere, or a missing library). Why C: the cipher context and
// its ctrl calls stay on this side, so no half-initialised EVP_CIPHER_CTX ever reaches Swift.
int kc_aes256gcm_seal(const unsigned char *key, const unsigned char *nonce, const unsigned char *aad, size_t aad_len,
                      const unsigned char *in, size_t in_len, unsigned char *out, unsigned char *tag);
int kc_aes256gcm_open(const unsigned char *key, const unsigned char *nonce, const unsigned char *aad, size_t aad_len,
                      const unsigned char *in, size_t in_len, const unsigned char *tag, unsigned char *out);

// scrypt (RFC 7914) through OpenSSL's EVP_PBE_scrypt, which is a plain function (no OSSL_PARAM
// names to keep alive). `maxmem` 0 lets OpenSSL pick from N and r. Returns 1 on success.
int kc_scrypt(const char *pass, size_t pass_len, const unsigned char *salt, size_t salt_len,
              uint64_t n, uint64_t r, uint64_t p, uint64_t maxmem, unsigned char *key, size_t key_len);

// Zeroes `len` bytes at `p` in a way the compiler may not drop (OPENSSL_cleanse); a no-op that
// still zeroes with volatile stores when the library is missing.
void kc_cleanse(void *p, size_t len);
// --- DPoP keys (RFC 9449 §4.1: a key pair made by the client for its proofs) -------------------

// A new private key: `kind` 256 for EC P-256 (ES256), 2048 or more for RSA of that many bits
// (RS256/PS256); NULL on failure. Why C: the group name is a string the key-generation context
// keeps, the same lifetime hazard as kc_ec_public_key.
EVP_PKEY *kc_generate_key(int kind);

// `pkey` as unencrypted PKCS#8 PEM ("BEGIN PRIVATE KEY") into `out` (capacity `cap`); returns the
// length, or -1 (also when `cap` is too small). Why C: the memory BIO stays on this side.
int kc_private_key_to_pem(EVP_PKEY *pkey, unsigned char *out, size_t cap);

// The public numbers of a JWK (RFC 7518 §6.2.1, §6.3.1): for EC the affine coordinates `x` and `y`
// (each `coord_len` bytes, left-padded); returns 1 on success.
int kc_ec_public_xy(const EVP_PKEY *pkey, unsigned char *x, unsigned char *y, size_t coord_len);

// For RSA the modulus and exponent, big-endian without leading zeros, into `n`/`e` (capacities
// `n_cap`/`e_cap`); their lengths in `*n_len`/`*e_len`. Returns 1 on success.
int kc_rsa_public_ne(const EVP_PKEY *pkey, unsigned char *n, size_t n_cap, size_t *n_len,
                     unsigned char *e, size_t e_cap, size_t *e_len);

#endif
