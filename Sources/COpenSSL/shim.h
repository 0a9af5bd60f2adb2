// COpenSSL: the OpenSSL 3 surface KCAuthCrypto needs, plus a few `kc_` helpers.
//
// Only KCAuthCrypto imports this module. Each helper below exists because the
// same code written in Swift is unsafe or impossible; see
// /work/shared/notes/swift-c-interop.md §3 and §4.
#ifndef KC_COPENSSL_SHIM_H
#define KC_COPENSSL_SHIM_H

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <stddef.h>
#include <string.h>

// Build a public EVP_PKEY of `type` ("RSA" or "EC") from finished OSSL_PARAMs.
// Not called from Swift directly; shared by the two importers below.
static inline EVP_PKEY *kc_pkey_from_builder(const char *type, OSSL_PARAM_BLD *bld) {
    EVP_PKEY *pkey = NULL;
    OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(bld);
    EVP_PKEY_CTX *ctx = params ? EVP_PKEY_CTX_new_from_name(NULL, type, NULL) : NULL;
    if (ctx == NULL || EVP_PKEY_fromdata_init(ctx) <= 0
        || EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, params) <= 0) {
        pkey = NULL;
    }
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);
    return pkey;
}

// JWK {"kty":"RSA","n","e"} (RFC 7518 §6.3.1) -> EVP_PKEY, or NULL.
// Why C: OSSL_PARAM_BLD_push_BN keeps the *name* pointer (OSSL_PKEY_PARAM_RSA_N,
// a string macro) until OSSL_PARAM_BLD_to_param; from Swift that name is a
// temporary C string that dies after the push, and EVP_PKEY_fromdata then
// fails with an empty error queue. Here the names are static literals.
static inline EVP_PKEY *kc_rsa_public_key(const unsigned char *n, size_t n_len,
                                          const unsigned char *e, size_t e_len) {
    EVP_PKEY *pkey = NULL;
    BIGNUM *bn_n = BN_bin2bn(n, (int)n_len, NULL);
    BIGNUM *bn_e = BN_bin2bn(e, (int)e_len, NULL);
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    if (bn_n && bn_e && bld
        && OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, bn_n)
        && OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, bn_e)) {
        pkey = kc_pkey_from_builder("RSA", bld);
    }
    OSSL_PARAM_BLD_free(bld);
    BN_free(bn_n);
    BN_free(bn_e);
    return pkey;
}

// JWK {"kty":"EC","crv","x","y"} (RFC 7518 §6.2.1) -> EVP_PKEY, or NULL.
// `curve_bits` is 256 (P-256) or 384 (P-384); `x` and `y` are exactly
// `coord_len` bytes each (32 or 48). Why C: the same stored-name-pointer
// hazard as above, for the group name and the public-key octet string.
// OpenSSL rejects a point that is not on the curve.
static inline EVP_PKEY *kc_ec_public_key(int curve_bits, const unsigned char *x,
                                         const unsigned char *y, size_t coord_len) {
    const char *group = curve_bits == 256 ? "P-256" : curve_bits == 384 ? "P-384" : NULL;
    if (group == NULL || coord_len != (size_t)(curve_bits / 8)) return NULL;
    unsigned char point[1 + 2 * 48];   // SEC 1 §2.3.3 uncompressed: 0x04 || x || y
    point[0] = 0x04;
    for (size_t i = 0; i < coord_len; i++) {
        point[1 + i] = x[i];
        point[1 + coord_len + i] = y[i];
    }
    EVP_PKEY *pkey = NULL;
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    if (bld
        && OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, group, 0)
        && OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, point, 1 + 2 * coord_len)) {
        pkey = kc_pkey_from_builder("EC", bld);
    }
    OSSL_PARAM_BLD_free(bld);
    return pkey;
}

// JWS ECDSA signature R || S (RFC 7518 §3.4, two big-endian halves) -> the
// DER ECDSA-Sig-Value OpenSSL verifies. Writes into `out` (capacity `cap`)
// and returns the DER length, or -1. Why C: ECDSA_SIG_set0 takes ownership
// of the BIGNUMs and i2d_ advances a `unsigned char **`; keeping that dance
// here means no OpenSSL-owned memory ever crosses into Swift.
static inline int kc_ecdsa_raw_to_der(const unsigned char *rs, size_t rs_len,
                                      unsigned char *out, size_t cap) {
    if (rs_len == 0 || rs_len % 2 != 0) return -1;
    size_t half = rs_len / 2;
    ECDSA_SIG *sig = ECDSA_SIG_new();
    BIGNUM *r = BN_bin2bn(rs, (int)half, NULL);
    BIGNUM *s = BN_bin2bn(rs + half, (int)half, NULL);
    int len = -1;
    if (sig && r && s && ECDSA_SIG_set0(sig, r, s)) {
        r = s = NULL;   // now owned by sig
        int needed = i2d_ECDSA_SIG(sig, NULL);
        if (needed > 0 && (size_t)needed <= cap) {
            unsigned char *p = out;
            len = i2d_ECDSA_SIG(sig, &p);
        }
    }
    BN_free(r);
    BN_free(s);
    ECDSA_SIG_free(sig);
    return len;
}

// RSASSA-PSS for PS256/384/512 (RFC 7518 §3.5): MGF1 with the message digest
// (OpenSSL's default) and a salt exactly as long as the digest. One call so
// the Swift side need not mix the two setters with their macro constants.
// Returns 1 on success.
static inline int kc_set_pss_padding(EVP_PKEY_CTX *pctx) {
    return EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) > 0
        && EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST) > 0;
}

// --- signing (client assertions, RFC 7523) ---------------------------------

// A PEM passphrase callback that refuses: OpenSSL's default one would prompt on
// the terminal, and an encrypted key must fail at once instead (never hang).
static inline int kc_refuse_passphrase(char *buf, int size, int rwflag, void *u) {
    (void)buf; (void)size; (void)rwflag; (void)u;
    return -1;
}

// The first private key in PEM text (PKCS#8 "PRIVATE KEY", or the traditional
// "RSA PRIVATE KEY" / "EC PRIVATE KEY"), or NULL. Why C: the BIO and the
// callback's function pointer stay on this side; Swift gets only the key.
static inline EVP_PKEY *kc_private_key_from_pem(const unsigned char *pem, size_t len) {
    if (len > (size_t)0x7fffffff) return NULL;
    BIO *bio = BIO_new_mem_buf(pem, (int)len);
    if (bio == NULL) return NULL;
    EVP_PKEY *pkey = PEM_read_bio_PrivateKey(bio, NULL, kc_refuse_passphrase, NULL);
    BIO_free(bio);
    return pkey;
}

// The JWS curve size of an EC key: 256 for P-256, 384 for P-384, else 0
// (secp256k1 is 256 bits too, so the bit count alone does not say P-256).
static inline int kc_ec_curve_bits(const EVP_PKEY *pkey) {
    char name[64];
    size_t len = 0;
    if (EVP_PKEY_get_group_name(pkey, name, sizeof name, &len) != 1) return 0;
    if (strcmp(name, "prime256v1") == 0 || strcmp(name, "P-256") == 0) return 256;
    if (strcmp(name, "secp384r1") == 0 || strcmp(name, "P-384") == 0) return 384;
    return 0;
}

// DER ECDSA-Sig-Value (what OpenSSL signs) -> JWS R || S, each half
// `coord_len` bytes, big-endian, left-padded (RFC 7518 §3.4). Writes
// 2 * coord_len bytes into `out`; returns 1 on success. Why C: the same
// ownership dance as kc_ecdsa_raw_to_der, in reverse.
static inline int kc_ecdsa_der_to_raw(const unsigned char *der, size_t der_len,
                                      unsigned char *out, size_t coord_len) {
    if (der_len > (size_t)0x7fffffff) return 0;
    const unsigned char *p = der;
    ECDSA_SIG *sig = d2i_ECDSA_SIG(NULL, &p, (long)der_len);
    if (sig == NULL) return 0;
    const BIGNUM *r = NULL, *s = NULL;
    ECDSA_SIG_get0(sig, &r, &s);
    int ok = r && s
        && BN_bn2binpad(r, out, (int)coord_len) == (int)coord_len
        && BN_bn2binpad(s, out + coord_len, (int)coord_len) == (int)coord_len;
    ECDSA_SIG_free(sig);
    return ok;
}

#endif
