// libcurl for KCAuthSystem, loaded on first use with dlopen instead of linked.
//
// Why: linking libcurl makes every kcauth process load it and its ~40 dependencies (GnuTLS,
// Kerberos, LDAP, …) at start-up, about 5 ms, although `kcauth token` with a valid token never
// makes a request (README, "Speed"). The types and constants still come from <curl/curl.h>;
// only the calls go through a table of function pointers filled by kc_curl_load().
//
// Also why the setopt/getinfo wrappers: curl_easy_setopt and curl_easy_getinfo are variadic,
// which Swift cannot call. Each wrapper fixes one argument type, so the value reaches libcurl
// with exactly the type the option expects (a function pointer never travels through void *).
#ifndef KC_CCURL_H
#define KC_CCURL_H

#include <curl/curl.h>

// CURL_GLOBAL_DEFAULT is a compound macro, which the Clang importer drops.
static const long KC_CURL_GLOBAL_DEFAULT = CURL_GLOBAL_DEFAULT;

// Loads libcurl.so.4 once (thread-safe); 1 when every function below is usable, else 0 and
// kc_curl_load_error() says why. Every other function requires a successful load.
int kc_curl_load(void);
const char *kc_curl_load_error(void);

CURLcode kc_curl_global_init(long flags);
CURL *kc_curl_easy_init(void);
void kc_curl_easy_cleanup(CURL *handle);
CURLcode kc_curl_easy_perform(CURL *handle);
const char *kc_curl_easy_strerror(CURLcode code);
struct curl_slist *kc_curl_slist_append(struct curl_slist *list, const char *line);
void kc_curl_slist_free_all(struct curl_slist *list);
void kc_curl_free(void *p);
CURLU *kc_curl_url(void);
void kc_curl_url_cleanup(CURLU *handle);
CURLUcode kc_curl_url_set(CURLU *handle, CURLUPart part, const char *content, unsigned int flags);
CURLUcode kc_curl_url_get(CURLU *handle, CURLUPart part, char **content, unsigned int flags);

// What the loaded libcurl says of itself (its version, its TLS library's, zlib's): for
// `doctor --bundle`, which reports the library that runs, not the headers kcauth was built with.
const curl_version_info_data *kc_curl_version_info(void);

CURLcode kc_curl_set_long(CURL *h, CURLoption o, long v);
// String options are copied by libcurl, so a temporary Swift C string is fine here.
CURLcode kc_curl_set_str(CURL *h, CURLoption o, const char *v);
// Data pointers (error buffer, callback contexts) are NOT copied: keep them alive until cleanup.
CURLcode kc_curl_set_ptr(CURL *h, CURLoption o, void *v);
// The header list is NOT copied either: free it after kc_curl_easy_cleanup.
CURLcode kc_curl_set_slist(CURL *h, CURLoption o, struct curl_slist *v);
// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION share this signature.
CURLcode kc_curl_set_write_callback(CURL *h, CURLoption o, curl_write_callback cb);
CURLcode kc_curl_get_long(CURL *h, CURLINFO i, long *out);
CURLcode kc_curl_get_off(CURL *h, CURLINFO i, curl_off_t *out);

#endif
