// Why this file exists: curl_easy_setopt and curl_easy_getinfo are C variadic functions, which
// Swift cannot call. Each wrapper below fixes one argument type, so the value reaches libcurl
// with exactly the type the option expects (a function pointer never travels through void *).
// Kept minimal and prefixed `kc_`; see /work/shared/notes/swift-c-interop.md §2 and §5.
#ifndef KC_CCURL_SHIM_H
#define KC_CCURL_SHIM_H

#include <curl/curl.h>

// CURL_GLOBAL_DEFAULT is a compound macro, which the Clang importer drops.
static const long KC_CURL_GLOBAL_DEFAULT = CURL_GLOBAL_DEFAULT;

static inline CURLcode kc_curl_set_long(CURL *h, CURLoption o, long v) {
    return curl_easy_setopt(h, o, v);
}

// String options are copied by libcurl, so a temporary Swift C string is fine here.
static inline CURLcode kc_curl_set_str(CURL *h, CURLoption o, const char *v) {
    return curl_easy_setopt(h, o, v);
}

// Data pointers (error buffer, callback contexts) are NOT copied: the caller keeps them alive
// until curl_easy_cleanup.
static inline CURLcode kc_curl_set_ptr(CURL *h, CURLoption o, void *v) {
    return curl_easy_setopt(h, o, v);
}

// The header list is NOT copied either: free it after curl_easy_cleanup.
static inline CURLcode kc_curl_set_slist(CURL *h, CURLoption o, struct curl_slist *v) {
    return curl_easy_setopt(h, o, v);
}

// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION share this signature.
static inline CURLcode kc_curl_set_write_callback(CURL *h, CURLoption o, curl_write_callback cb) {
    return curl_easy_setopt(h, o, cb);
}

static inline CURLcode kc_curl_get_long(CURL *h, CURLINFO i, long *out) {
    return curl_easy_getinfo(h, i, out);
}

static inline CURLcode kc_curl_get_off(CURL *h, CURLINFO i, curl_off_t *out) {
    return curl_easy_getinfo(h, i, out);
}

#endif
