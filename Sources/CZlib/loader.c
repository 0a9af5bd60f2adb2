// The function table behind CZlib.h, filled once by dlopen/dlsym. See CZlib.h for why.
#include "CZlib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

// One pointer per zlib function, typed from the real prototype.
#define KC_FN(name) __typeof__(&name) name
static struct {
    KC_FN(zlibVersion); KC_FN(deflateInit2_); KC_FN(deflate); KC_FN(deflateEnd); KC_FN(deflateBound);
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
    const char *soname = "libz.so.1";
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(load_error, sizeof load_error, "%s", dlerror());
        return;
    }
    KC_BIND(zlibVersion) KC_BIND(deflateInit2_) KC_BIND(deflate) KC_BIND(deflateEnd) KC_BIND(deflateBound)
    loaded = 1;
}

int kc_zlib_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *kc_zlib_load_error(void) { return load_error; }

const char *kc_zlib_version(void) { return kc_zlib_load() ? api.zlibVersion() : NULL; }

// The gzip header and trailer take 18 bytes beyond deflate's own bound (zlib.h, deflateBound).
size_t kc_gzip_bound(size_t count) { return count + count / 1000 + 64 + 18; }

long kc_gzip(const unsigned char *in, size_t count, unsigned char *out, size_t cap) {
    if (!kc_zlib_load() || count > UINT32_MAX || cap > UINT32_MAX) return -1;  // avail_in/out are 32-bit
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    // windowBits 15 + 16: a gzip wrapper instead of zlib's (zlib.h, deflateInit2).
    if (api.deflateInit2_(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                          ZLIB_VERSION, (int)sizeof stream) != Z_OK) {
        return -1;
    }
    if (api.deflateBound(&stream, count) > cap) {
        api.deflateEnd(&stream);
        return -1;
    }
    stream.next_in = (unsigned char *)in;
    stream.avail_in = (uInt)count;
    stream.next_out = out;
    stream.avail_out = (uInt)cap;
    int status = api.deflate(&stream, Z_FINISH);
    long written = (long)stream.total_out;
    api.deflateEnd(&stream);
    return status == Z_STREAM_END ? written : -1;
}
