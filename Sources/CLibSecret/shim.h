// kcauth ↔ libsecret glue. Swift cannot call variadic C functions (secret_password_*_sync take an
// attribute list ending in NULL), so each call we need gets a typed static inline wrapper here.
// The wrappers pass GCancellable and GError straight through: Swift owns deadlines and errors.
#ifndef KCAUTH_CLIBSECRET_SHIM_H
#define KCAUTH_CLIBSECRET_SHIM_H

#include <libsecret/secret.h>

// Schema `dev.kcauth.AuthState`. The name is stored as the `xdg:schema` attribute and matched on
// lookup, so it must never change (items stored under another name become invisible).
static const SecretSchema kc_auth_schema = {
    "dev.kcauth.AuthState", SECRET_SCHEMA_NONE,
    {
        { "profile", SECRET_SCHEMA_ATTRIBUTE_STRING },
        { "issuer", SECRET_SCHEMA_ATTRIBUTE_STRING },
        { "client_id", SECRET_SCHEMA_ATTRIBUTE_STRING },
        { NULL, 0 },
    }
};

// Creates or replaces the item with exactly these three attributes in the default collection.
static inline gboolean kc_secret_store(const gchar *label, const gchar *secret,
                                       const gchar *profile, const gchar *issuer,
                                       const gchar *client_id,
                                       GCancellable *cancellable, GError **error) {
    return secret_password_store_sync(&kc_auth_schema, SECRET_COLLECTION_DEFAULT, label, secret,
                                      cancellable, error,
                                      "profile", profile, "issuer", issuer,
                                      "client_id", client_id, NULL);
}

// The secret of the first unlocked item of `profile`, or NULL (not stored *or* locked).
// Free the result with secret_password_free (it zeroes the memory).
static inline gchar *kc_secret_lookup(const gchar *profile,
                                      GCancellable *cancellable, GError **error) {
    return secret_password_lookup_sync(&kc_auth_schema, cancellable, error,
                                       "profile", profile, NULL);
}

// Deletes every unlocked item of `profile`; FALSE with no error when nothing matched.
static inline gboolean kc_secret_clear(const gchar *profile,
                                       GCancellable *cancellable, GError **error) {
    return secret_password_clear_sync(&kc_auth_schema, cancellable, error,
                                      "profile", profile, NULL);
}

// Deletes the items of `profile` stored under one exact (issuer, client_id) pair.
static inline gboolean kc_secret_clear_exact(const gchar *profile, const gchar *issuer,
                                             const gchar *client_id,
                                             GCancellable *cancellable, GError **error) {
    return secret_password_clear_sync(&kc_auth_schema, cancellable, error,
                                      "profile", profile, "issuer", issuer,
                                      "client_id", client_id, NULL);
}

// All unlocked items of `profile` (a GList of SecretRetrievable*, secrets not loaded), so that
// items left over under an older issuer/client_id can be found. Free with
// g_list_free_full(list, g_object_unref).
static inline GList *kc_secret_search(const gchar *profile,
                                      GCancellable *cancellable, GError **error) {
    return secret_password_search_sync(&kc_auth_schema, SECRET_SEARCH_ALL, cancellable, error,
                                       "profile", profile, NULL);
}

// g_object_unref as a typed function pointer for g_list_free_full (GDestroyNotify).
static inline void kc_list_free_objects(GList *list) {
    g_list_free_full(list, g_object_unref);
}

#endif
