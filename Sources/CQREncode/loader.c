// The two libqrencode functions behind CQREncode.h, bound once by dlopen/dlsym.
#include "CQREncode.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    __typeof__(&QRcode_encodeString) QRcode_encodeString;
    __typeof__(&QRcode_free) QRcode_free;
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_error[256];

static void load(void) {
    const char *soname = "libqrencode.so.4";
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(load_error, sizeof load_error, "%s", dlerror());
        return;
    }
    *(void **)&api.QRcode_encodeString = dlsym(lib, "QRcode_encodeString");
    *(void **)&api.QRcode_free = dlsym(lib, "QRcode_free");
    if (!api.QRcode_encodeString || !api.QRcode_free) {
        snprintf(load_error, sizeof load_error, "%s lacks QRcode_encodeString or QRcode_free", soname);
        return;
    }
    loaded = 1;
}

const char *kc_qrencode_load_error(void) {
    pthread_once(&once, load);
    return loaded ? NULL : load_error;
}

QRcode *kc_QRcode_encodeString(const char *string, int version, QRecLevel level, QRencodeMode hint, int casesensitive) {
    if (kc_qrencode_load_error()) {
        errno = ELIBACC;
        return NULL;
    }
    return api.QRcode_encodeString(string, version, level, hint, casesensitive);
}

void kc_QRcode_free(QRcode *qrcode) {
    if (!kc_qrencode_load_error()) api.QRcode_free(qrcode);
}
