// zlib for KCAuthSystem (the gzip of `doctor --bundle`), loaded on first use with dlopen instead
// of linked, like libcurl and libcrypto: no other command needs it, so no other command maps it.
//
// The z_stream dance (a struct the library keeps pointers into, deflateInit2_ being a macro's
// target) stays here; Swift gets one call that compresses a buffer whole.
#ifndef KC_CZLIB_H
#define KC_CZLIB_H

#include <stddef.h>

// Loads libz.so.1 once (thread-safe); 1 when usable, else 0 and kc_zlib_load_error() says why.
int kc_zlib_load(void);
const char *kc_zlib_load_error(void);

// The loaded library's version ("1.2.13"), or NULL when it cannot be loaded.
const char *kc_zlib_version(void);

// `in` (`count` bytes) as one gzip member (RFC 1952) into `out` (capacity `cap`, at least
// kc_gzip_bound(count)); returns the gzip's length, or -1 (not loaded, or zlib failed).
long kc_gzip(const unsigned char *in, size_t count, unsigned char *out, size_t cap);
// Enough room for kc_gzip's output of `count` bytes.
size_t kc_gzip_bound(size_t count);

#endif
