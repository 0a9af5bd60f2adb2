// The function table behind CCurl.h, filled once by dlopen/dlsym. See CCurl.h for why.
#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    void (*free)(void *);
    CURLU *(*url)(void);
    void (*url_cleanup)(CURLU *);
    CURLUcode (*url_set)(CURLU *, CURLUPart, const char *, unsigned int);
    CURLUcode (*url_get)(CURLU *, CURLUPart, char **, unsigned int);
    curl_version_info_data *(*version_info)(CURLversion);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_error[256];

#define KC_BIND(field, symbol)                                                         \
    if (!(*(void **)&api.field = dlsym(lib, symbol))) {                               \
        snprintf(load_error, sizeof load_error, "%s has no symbol %s", soname, symbol); \
        return;                                                                        \
    }

static void load(void) {
    // The soname Debian's libcurl4 (OpenSSL flavour) ships; the ABI has been 4 since 2006.
    const char *soname = "libcurl.so.4";
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(load_error, sizeof load_error, "%s", dlerror());
        return;
    }
    KC_BIND(global_init, "curl_global_init")
    KC_BIND(easy_init, "curl_easy_init")
    KC_BIND(easy_cleanup, "curl_easy_cleanup")
    KC_BIND(easy_perform, "curl_easy_perform")
    KC_BIND(easy_strerror, "curl_easy_strerror")
    KC_BIND(easy_setopt, "curl_easy_setopt")
    KC_BIND(easy_getinfo, "curl_easy_getinfo")
    KC_BIND(slist_append, "curl_slist_append")
    KC_BIND(slist_free_all, "curl_slist_free_all")
    KC_BIND(free, "curl_free")
    KC_BIND(url, "curl_url")
    KC_BIND(url_cleanup, "curl_url_cleanup")
    KC_BIND(url_set, "curl_url_set")
    KC_BIND(url_get, "curl_url_get")
    KC_BIND(version_info, "curl_version_info")
    loaded = 1;
}

int kc_curl_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *kc_curl_load_error(void) { return load_error; }

CURLcode kc_curl_global_init(long flags) { return api.global_init(flags); }
CURL *kc_curl_easy_init(void) { return api.easy_init(); }
void kc_curl_easy_cleanup(CURL *handle) { api.easy_cleanup(handle); }
CURLcode kc_curl_easy_perform(CURL *handle) { return api.easy_perform(handle); }
const char *kc_curl_easy_strerror(CURLcode code) { return api.easy_strerror(code); }
struct curl_slist *kc_curl_slist_append(struct curl_slist *list, const char *line) { return api.slist_append(list, line); }
void kc_curl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }
void kc_curl_free(void *p) { api.free(p); }
CURLU *kc_curl_url(void) { return api.url(); }
void kc_curl_url_cleanup(CURLU *handle) { api.url_cleanup(handle); }
CURLUcode kc_curl_url_set(CURLU *handle, CURLUPart part, const char *content, unsigned int flags) { return api.url_set(handle, part, content, flags); }
CURLUcode kc_curl_url_get(CURLU *handle, CURLUPart part, char **content, unsigned int flags) { return api.url_get(handle, part, content, flags); }

const curl_version_info_data *kc_curl_version_info(void) { return api.version_info(CURLVERSION_NOW); }

CURLcode kc_curl_set_long(CURL *h, CURLoption o, long v) { return api.easy_setopt(h, o, v); }
CURLcode kc_curl_set_str(CURL *h, CURLoption o, const char *v) { return api.easy_setopt(h, o, v); }
CURLcode kc_curl_set_ptr(CURL *h, CURLoption o, void *v) { return api.easy_setopt(h, o, v); }
CURLcode kc_curl_set_slist(CURL *h, CURLoption o, struct curl_slist *v) { return api.easy_setopt(h, o, v); }
CURLcode kc_curl_set_write_callback(CURL *h, CURLoption o, curl_write_callback cb) { return api.easy_setopt(h, o, cb); }
CURLcode kc_curl_get_long(CURL *h, CURLINFO i, long *out) { return api.easy_getinfo(h, i, out); }
CURLcode kc_curl_get_off(CURL *h, CURLINFO i, curl_off_t *out) { return api.easy_getinfo(h, i, out); }
