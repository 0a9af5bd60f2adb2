// The function table behind COpenSSL.h, filled once by dlopen/dlsym. See COpenSSL.h for why.
#include "COpenSSL.h"

#include <dlfcn.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// One pointer per OpenSSL function, typed from the real prototype.
#define KC_FN(name) __typeof__(&name) name
static struct {
    KC_FN(EVP_Digest); KC_FN(EVP_sha256); KC_FN(EVP_sha384); KC_FN(EVP_sha512);
    KC_FN(EVP_MD_CTX_new); KC_FN(EVP_MD_CTX_free); KC_FN(EVP_DigestVerifyInit); KC_FN(EVP_DigestVerify);
    KC_FN(EVP_PKEY_free); KC_FN(EVP_PKEY_get_size); KC_FN(EVP_PKEY_get_bits);
    KC_FN(RAND_bytes); KC_FN(ERR_get_error); KC_FN(ERR_clear_error); KC_FN(ERR_error_string_n);
    KC_FN(BN_bin2bn); KC_FN(BN_free);
    KC_FN(OSSL_PARAM_BLD_new); KC_FN(OSSL_PARAM_BLD_free); KC_FN(OSSL_PARAM_BLD_to_param); KC_FN(OSSL_PARAM_free);
    KC_FN(OSSL_PARAM_BLD_push_BN); KC_FN(OSSL_PARAM_BLD_push_utf8_string); KC_FN(OSSL_PARAM_BLD_push_octet_string);
    KC_FN(EVP_PKEY_CTX_new_from_name); KC_FN(EVP_PKEY_CTX_free); KC_FN(EVP_PKEY_fromdata_init); KC_FN(EVP_PKEY_fromdata);
    KC_FN(EVP_PKEY_CTX_set_rsa_padding); KC_FN(EVP_PKEY_CTX_set_rsa_pss_saltlen);
    KC_FN(ECDSA_SIG_new); KC_FN(ECDSA_SIG_free); KC_FN(ECDSA_SIG_set0); KC_FN(i2d_ECDSA_SIG);
    KC_FN(EVP_DigestSignInit); KC_FN(EVP_DigestSign); KC_FN(EVP_PKEY_is_a); KC_FN(EVP_PKEY_get_group_name);
    KC_FN(BIO_new_mem_buf); KC_FN(BIO_free); KC_FN(PEM_read_bio_PrivateKey);
    KC_FN(d2i_ECDSA_SIG); KC_FN(ECDSA_SIG_get0); KC_FN(BN_bn2binpad);
    KC_FN(EVP_CIPHER_CTX_new); KC_FN(EVP_CIPHER_CTX_free); KC_FN(EVP_aes_256_gcm); KC_FN(EVP_CIPHER_CTX_ctrl);
    KC_FN(EVP_EncryptInit_ex); KC_FN(EVP_EncryptUpdate); KC_FN(EVP_EncryptFinal_ex);
    KC_FN(EVP_DecryptInit_ex); KC_FN(EVP_DecryptUpdate); KC_FN(EVP_DecryptFinal_ex);
    KC_FN(EVP_PBE_scrypt); KC_FN(OPENSSL_cleanse);
    KC_FN(EVP_PKEY_keygen_init); KC_FN(EVP_PKEY_generate); KC_FN(EVP_PKEY_CTX_set_group_name);
    KC_FN(EVP_PKEY_CTX_set_rsa_keygen_bits); KC_FN(BIO_new); KC_FN(BIO_s_mem); KC_FN(BIO_read);
    KC_FN(PEM_write_bio_PrivateKey); KC_FN(EVP_PKEY_get_bn_param); KC_FN(BN_num_bits);
    KC_FN(OpenSSL_version);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_error[256];

#define KC_BIND(name)                                                                       \
    if (!(*(void **)&api.name = dlsym(lib, #name))) {                                       \
        snprintf(load_error, sizeof load_error, "%s has no symbol %s", soname, #name);      \
        return;                                                                             \
    }

static void load(void) {
    const char *soname = "libcrypto.so.3";
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(load_error, sizeof load_error, "%s", dlerror());
        return;
    }
    KC_BIND(EVP_Digest) KC_BIND(EVP_sha256) KC_BIND(EVP_sha384) KC_BIND(EVP_sha512)
    KC_BIND(EVP_MD_CTX_new) KC_BIND(EVP_MD_CTX_free) KC_BIND(EVP_DigestVerifyInit) KC_BIND(EVP_DigestVerify)
    KC_BIND(EVP_PKEY_free) KC_BIND(EVP_PKEY_get_size) KC_BIND(EVP_PKEY_get_bits)
    KC_BIND(RAND_bytes) KC_BIND(ERR_get_error) KC_BIND(ERR_clear_error) KC_BIND(ERR_error_string_n)
    KC_BIND(BN_bin2bn) KC_BIND(BN_free)
    KC_BIND(OSSL_PARAM_BLD_new) KC_BIND(OSSL_PARAM_BLD_free) KC_BIND(OSSL_PARAM_BLD_to_param) KC_BIND(OSSL_PARAM_free)
    KC_BIND(OSSL_PARAM_BLD_push_BN) KC_BIND(OSSL_PARAM_BLD_push_utf8_string) KC_BIND(OSSL_PARAM_BLD_push_octet_string)
    KC_BIND(EVP_PKEY_CTX_new_from_name) KC_BIND(EVP_PKEY_CTX_free) KC_BIND(EVP_PKEY_fromdata_init) KC_BIND(EVP_PKEY_fromdata)
    KC_BIND(EVP_PKEY_CTX_set_rsa_padding) KC_BIND(EVP_PKEY_CTX_set_rsa_pss_saltlen)
    KC_BIND(ECDSA_SIG_new) KC_BIND(ECDSA_SIG_free) KC_BIND(ECDSA_SIG_set0) KC_BIND(i2d_ECDSA_SIG)
    KC_BIND(EVP_DigestSignInit) KC_BIND(EVP_DigestSign) KC_BIND(EVP_PKEY_is_a) KC_BIND(EVP_PKEY_get_group_name)
    KC_BIND(BIO_new_mem_buf) KC_BIND(BIO_free) KC_BIND(PEM_read_bio_PrivateKey)
    KC_BIND(d2i_ECDSA_SIG) KC_BIND(ECDSA_SIG_get0) KC_BIND(BN_bn2binpad)
    KC_BIND(EVP_CIPHER_CTX_new) KC_BIND(EVP_CIPHER_CTX_free) KC_BIND(EVP_aes_256_gcm) KC_BIND(EVP_CIPHER_CTX_ctrl)
    KC_BIND(EVP_EncryptInit_ex) KC_BIND(EVP_EncryptUpdate) KC_BIND(EVP_EncryptFinal_ex)
    KC_BIND(EVP_DecryptInit_ex) KC_BIND(EVP_DecryptUpdate) KC_BIND(EVP_DecryptFinal_ex)
    KC_BIND(EVP_PBE_scrypt) KC_BIND(OPENSSL_cleanse)
    KC_BIND(OpenSSL_version)
    KC_BIND(EVP_PKEY_keygen_init) KC_BIND(EVP_PKEY_generate) KC_BIND(EVP_PKEY_CTX_set_group_name)
    KC_BIND(EVP_PKEY_CTX_set_rsa_keygen_bits) KC_BIND(BIO_new) KC_BIND(BIO_s_mem) KC_BIND(BIO_read)
    KC_BIND(PEM_write_bio_PrivateKey) KC_BIND(EVP_PKEY_get_bn_param) KC_BIND(BN_num_bits)
    loaded = 1;
}

int kc_crypto_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *kc_crypto_load_error(void) {
    return kc_crypto_load() ? NULL : load_error;
}

int kc_EVP_Digest(const void *data, size_t count, unsigned char *md, unsigned int *size, const EVP_MD *type, ENGINE *impl) {
    return kc_crypto_load() ? api.EVP_Digest(data, count, md, size, type, impl) : 0;
}
const EVP_MD *kc_EVP_sha256(void) { return kc_crypto_load() ? api.EVP_sha256() : NULL; }
const EVP_MD *kc_EVP_sha384(void) { return kc_crypto_load() ? api.EVP_sha384() : NULL; }
const EVP_MD *kc_EVP_sha512(void) { return kc_crypto_load() ? api.EVP_sha512() : NULL; }
EVP_MD_CTX *kc_EVP_MD_CTX_new(void) { return kc_crypto_load() ? api.EVP_MD_CTX_new() : NULL; }
void kc_EVP_MD_CTX_free(EVP_MD_CTX *ctx) { if (kc_crypto_load()) api.EVP_MD_CTX_free(ctx); }
int kc_EVP_DigestVerifyInit(EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey) {
    return kc_crypto_load() ? api.EVP_DigestVerifyInit(ctx, pctx, type, e, pkey) : 0;
}
int kc_EVP_DigestVerify(EVP_MD_CTX *ctx, const unsigned char *sig, size_t siglen, const unsigned char *tbs, size_t tbslen) {
    return kc_crypto_load() ? api.EVP_DigestVerify(ctx, sig, siglen, tbs, tbslen) : -1;
}
void kc_EVP_PKEY_free(EVP_PKEY *pkey) { if (kc_crypto_load()) api.EVP_PKEY_free(pkey); }
int kc_EVP_PKEY_get_size(const EVP_PKEY *pkey) { return kc_crypto_load() ? api.EVP_PKEY_get_size(pkey) : 0; }
int kc_EVP_PKEY_get_bits(const EVP_PKEY *pkey) { return kc_crypto_load() ? api.EVP_PKEY_get_bits(pkey) : 0; }
int kc_RAND_bytes(unsigned char *buf, int num) { return kc_crypto_load() ? api.RAND_bytes(buf, num) : -1; }
unsigned long kc_ERR_get_error(void) { return kc_crypto_load() ? api.ERR_get_error() : 0; }
void kc_ERR_clear_error(void) { if (kc_crypto_load()) api.ERR_clear_error(); }
const char *kc_OpenSSL_version(int type) { return kc_crypto_load() ? api.OpenSSL_version(type) : NULL; }
void kc_ERR_error_string_n(unsigned long e, char *buf, size_t len) {
    if (kc_crypto_load()) api.ERR_error_string_n(e, buf, len);
    else if (len > 0) snprintf(buf, len, "%s", load_error);
}

// Build a public EVP_PKEY of `type` ("RSA" or "EC") from finished OSSL_PARAMs.
static EVP_PKEY *pkey_from_builder(const char *type, OSSL_PARAM_BLD *bld) {
    EVP_PKEY *pkey = NULL;
    OSSL_PARAM *params = api.OSSL_PARAM_BLD_to_param(bld);
    EVP_PKEY_CTX *ctx = params ? api.EVP_PKEY_CTX_new_from_name(NULL, type, NULL) : NULL;
    if (ctx == NULL || api.EVP_PKEY_fromdata_init(ctx) <= 0
        || api.EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, params) <= 0) {
        pkey = NULL;
    }
    api.EVP_PKEY_CTX_free(ctx);
    api.OSSL_PARAM_free(params);
    return pkey;
}

EVP_PKEY *kc_rsa_public_key(const unsigned char *n, size_t n_len, const unsigned char *e, size_t e_len) {
    if (!kc_crypto_load()) return NULL;
    EVP_PKEY *pkey = NULL;
    BIGNUM *bn_n = api.BN_bin2bn(n, (int)n_len, NULL);
    BIGNUM *bn_e = api.BN_bin2bn(e, (int)e_len, NULL);
    OSSL_PARAM_BLD *bld = api.OSSL_PARAM_BLD_new();
    if (bn_n && bn_e && bld
        && api.OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, bn_n)
        && api.OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, bn_e)) {
        pkey = pkey_from_builder("RSA", bld);
    }
    api.OSSL_PARAM_BLD_free(bld);
    api.BN_free(bn_n);
    api.BN_free(bn_e);
    return pkey;
}

EVP_PKEY *kc_ec_public_key(int curve_bits, const unsigned char *x, const unsigned char *y, size_t coord_len) {
    const char *group = curve_bits == 256 ? "P-256" : curve_bits == 384 ? "P-384" : NULL;
    if (group == NULL || coord_len != (size_t)(curve_bits / 8) || !kc_crypto_load()) return NULL;
    unsigned char point[1 + 2 * 48];   // SEC 1 §2.3.3 uncompressed: 0x04 || x || y
    point[0] = 0x04;
    for (size_t i = 0; i < coord_len; i++) {
        point[1 + i] = x[i];
        point[1 + coord_len + i] = y[i];
    }
    EVP_PKEY *pkey = NULL;
    OSSL_PARAM_BLD *bld = api.OSSL_PARAM_BLD_new();
    if (bld
        && api.OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, group, 0)
        && api.OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, point, 1 + 2 * coord_len)) {
        pkey = pkey_from_builder("EC", bld);
    }
    api.OSSL_PARAM_BLD_free(bld);
    return pkey;
}

int kc_ecdsa_raw_to_der(const unsigned char *rs, size_t rs_len, unsigned char *out, size_t cap) {
    if (rs_len == 0 || rs_len % 2 != 0 || !kc_crypto_load()) return -1;
    size_t half = rs_len / 2;
    ECDSA_SIG *sig = api.ECDSA_SIG_new();
    BIGNUM *r = api.BN_bin2bn(rs, (int)half, NULL);
    BIGNUM *s = api.BN_bin2bn(rs + half, (int)half, NULL);
    int len = -1;
    if (sig && r && s && api.ECDSA_SIG_set0(sig, r, s)) {
        r = s = NULL;   // now owned by sig
        int needed = api.i2d_ECDSA_SIG(sig, NULL);
        if (needed > 0 && (size_t)needed <= cap) {
            unsigned char *p = out;
            len = api.i2d_ECDSA_SIG(sig, &p);
        }
    }
    api.BN_free(r);
    api.BN_free(s);
    api.ECDSA_SIG_free(sig);
    return len;
}

int kc_set_pss_padding(EVP_PKEY_CTX *pctx) {
    return kc_crypto_load()
        && api.EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) > 0
        && api.EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST) > 0;
}

int kc_EVP_DigestSignInit(EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey) {
    return kc_crypto_load() ? api.EVP_DigestSignInit(ctx, pctx, type, e, pkey) : 0;
}
int kc_EVP_DigestSign(EVP_MD_CTX *ctx, unsigned char *sigret, size_t *siglen, const unsigned char *tbs, size_t tbslen) {
    return kc_crypto_load() ? api.EVP_DigestSign(ctx, sigret, siglen, tbs, tbslen) : 0;
}
int kc_EVP_PKEY_is_a(const EVP_PKEY *pkey, const char *name) { return kc_crypto_load() ? api.EVP_PKEY_is_a(pkey, name) : 0; }

static int refuse_passphrase(char *buf, int size, int rwflag, void *u) {
    (void)buf; (void)size; (void)rwflag; (void)u;
    return -1;
}

EVP_PKEY *kc_private_key_from_pem(const unsigned char *pem, size_t len) {
    if (len > (size_t)0x7fffffff || !kc_crypto_load()) return NULL;
    BIO *bio = api.BIO_new_mem_buf(pem, (int)len);
    if (bio == NULL) return NULL;
    EVP_PKEY *pkey = api.PEM_read_bio_PrivateKey(bio, NULL, refuse_passphrase, NULL);
    api.BIO_free(bio);
    return pkey;
}

int kc_ec_curve_bits(const EVP_PKEY *pkey) {
    char name[64];
    size_t len = 0;
    if (!kc_crypto_load() || api.EVP_PKEY_get_group_name(pkey, name, sizeof name, &len) != 1) return 0;
    if (strcmp(name, "prime256v1") == 0 || strcmp(name, "P-256") == 0) return 256;
    if (strcmp(name, "secp384r1") == 0 || strcmp(name, "P-384") == 0) return 384;
    return 0;
}

int kc_ecdsa_der_to_raw(const unsigned char *der, size_t der_len, unsigned char *out, size_t coord_len) {
    if (der_len > (size_t)0x7fffffff || !kc_crypto_load()) return 0;
    const unsigned char *p = der;
    ECDSA_SIG *sig = api.d2i_ECDSA_SIG(NULL, &p, (long)der_len);
    if (sig == NULL) return 0;
    const BIGNUM *r = NULL, *s = NULL;
    api.ECDSA_SIG_get0(sig, &r, &s);
    int ok = r && s
        && api.BN_bn2binpad(r, out, (int)coord_len) == (int)coord_len
        && api.BN_bn2binpad(s, out + coord_len, (int)coord_len) == (int)coord_len;
    api.ECDSA_SIG_free(sig);
    return ok;
}

// AES-256-GCM: 32-byte key, 12-byte nonce (GCM's default IV length), 16-byte tag.
static int gcm_lengths_ok(size_t aad_len, size_t in_len) {
    return aad_len <= (size_t)0x7fffffff && in_len <= (size_t)0x7fffffff;
}

int kc_aes256gcm_seal(const unsigned char *key, const unsigned char *nonce, const unsigned char *aad, size_t aad_len,
                      const unsigned char *in, size_t in_len, unsigned char *out, unsigned char *tag) {
    if (!gcm_lengths_ok(aad_len, in_len) || !kc_crypto_load()) return 0;
    EVP_CIPHER_CTX *ctx = api.EVP_CIPHER_CTX_new();
    int len = 0, ok = ctx != NULL
        && api.EVP_EncryptInit_ex(ctx, api.EVP_aes_256_gcm(), NULL, key, nonce) == 1
        && (aad_len == 0 || api.EVP_EncryptUpdate(ctx, NULL, &len, aad, (int)aad_len) == 1)
        && (in_len == 0 || api.EVP_EncryptUpdate(ctx, out, &len, in, (int)in_len) == 1)
        && api.EVP_EncryptFinal_ex(ctx, out + (in_len == 0 ? 0 : len), &len) == 1
        && api.EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, tag) == 1;
    api.EVP_CIPHER_CTX_free(ctx);
    return ok;
}

int kc_aes256gcm_open(const unsigned char *key, const unsigned char *nonce, const unsigned char *aad, size_t aad_len,
                      const unsigned char *in, size_t in_len, const unsigned char *tag, unsigned char *out) {
    if (!gcm_lengths_ok(aad_len, in_len) || !kc_crypto_load()) return 0;
    unsigned char expected[16];
    memcpy(expected, tag, sizeof expected);   // EVP_CTRL_GCM_SET_TAG takes a non-const pointer
    EVP_CIPHER_CTX *ctx = api.EVP_CIPHER_CTX_new();
    int len = 0, ok = ctx != NULL
        && api.EVP_DecryptInit_ex(ctx, api.EVP_aes_256_gcm(), NULL, key, nonce) == 1
        && (aad_len == 0 || api.EVP_DecryptUpdate(ctx, NULL, &len, aad, (int)aad_len) == 1)
        && (in_len == 0 || api.EVP_DecryptUpdate(ctx, out, &len, in, (int)in_len) == 1)
        && api.EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, 16, expected) == 1
        && api.EVP_DecryptFinal_ex(ctx, out + (in_len == 0 ? 0 : len), &len) == 1;
    api.EVP_CIPHER_CTX_free(ctx);
    if (!ok && in_len > 0) api.OPENSSL_cleanse(out, in_len);   // never hand out unverified plaintext
    return ok;
}

int kc_scrypt(const char *pass, size_t pass_len, const unsigned char *salt, size_t salt_len,
              uint64_t n, uint64_t r, uint64_t p, uint64_t maxmem, unsigned char *key, size_t key_len) {
    return kc_crypto_load() && api.EVP_PBE_scrypt(pass, pass_len, salt, salt_len, n, r, p, maxmem, key, key_len) == 1;
}

void kc_cleanse(void *p, size_t len) {
    if (kc_crypto_load()) {
        api.OPENSSL_cleanse(p, len);
    } else {
        volatile unsigned char *v = p;
        while (len--) *v++ = 0;
    }
}

EVP_PKEY *kc_generate_key(int kind) {
    if (!kc_crypto_load() || (kind != 256 && kind < 2048)) return NULL;
    EVP_PKEY *pkey = NULL;
    EVP_PKEY_CTX *ctx = api.EVP_PKEY_CTX_new_from_name(NULL, kind == 256 ? "EC" : "RSA", NULL);
    int ok = ctx && api.EVP_PKEY_keygen_init(ctx) > 0
        && (kind == 256 ? api.EVP_PKEY_CTX_set_group_name(ctx, "P-256") > 0
                        : api.EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, kind) > 0)
        && api.EVP_PKEY_generate(ctx, &pkey) > 0;
    if (!ok) { api.EVP_PKEY_free(pkey); pkey = NULL; }
    api.EVP_PKEY_CTX_free(ctx);
    return pkey;
}

int kc_private_key_to_pem(EVP_PKEY *pkey, unsigned char *out, size_t cap) {
    if (cap > (size_t)0x7fffffff || !kc_crypto_load()) return -1;
    BIO *bio = api.BIO_new(api.BIO_s_mem());
    if (bio == NULL) return -1;
    int len = -1;
    if (api.PEM_write_bio_PrivateKey(bio, pkey, NULL, NULL, 0, NULL, NULL) == 1) {
        len = api.BIO_read(bio, out, (int)cap);
        // A key longer than `cap` leaves bytes in the BIO: refuse rather than truncate.
        unsigned char more;
        if (len > 0 && api.BIO_read(bio, &more, 1) > 0) len = -1;
    }
    api.BIO_free(bio);   // a mem BIO frees (not clears) its buffer; the caller clears `out`
    return len;
}

// One BIGNUM parameter of `pkey` into `out`, left-padded to `len` bytes (len 0: its own length,
// written to *written). Returns 1 on success.
static int bn_param(const EVP_PKEY *pkey, const char *name, unsigned char *out, size_t cap, size_t len, size_t *written) {
    BIGNUM *bn = NULL;
    if (api.EVP_PKEY_get_bn_param(pkey, name, &bn) != 1 || bn == NULL) return 0;
    size_t need = len ? len : (size_t)(api.BN_num_bits(bn) + 7) / 8;
    int ok = need > 0 && need <= cap && api.BN_bn2binpad(bn, out, (int)need) == (int)need;
    if (ok && written) *written = need;
    api.BN_free(bn);
    return ok;
}

int kc_ec_public_xy(const EVP_PKEY *pkey, unsigned char *x, unsigned char *y, size_t coord_len) {
    return kc_crypto_load()
        && bn_param(pkey, OSSL_PKEY_PARAM_EC_PUB_X, x, coord_len, coord_len, NULL)
        && bn_param(pkey, OSSL_PKEY_PARAM_EC_PUB_Y, y, coord_len, coord_len, NULL);
}

int kc_rsa_public_ne(const EVP_PKEY *pkey, unsigned char *n, size_t n_cap, size_t *n_len,
                     unsigned char *e, size_t e_cap, size_t *e_len) {
    return kc_crypto_load()
        && bn_param(pkey, OSSL_PKEY_PARAM_RSA_N, n, n_cap, 0, n_len)
        && bn_param(pkey, OSSL_PKEY_PARAM_RSA_E, e, e_cap, 0, e_len);
}
