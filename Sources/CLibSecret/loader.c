// The function table behind CLibSecret.h, filled once by dlopen/dlsym. See CLibSecret.h for why.
#define _GNU_SOURCE  // dlinfo(3)
#include "CLibSecret.h"

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <pthread.h>
#include <stdio.h>

// libsecret's schema layout (SecretSchema in secret-schema.h): name, flags, 32 attributes,
// then reserved fields. Only the name and the attributes matter to the service.
typedef struct { const gchar *name; int type; } KCSchemaAttribute;
typedef struct {
    const gchar *name;
    int flags;
    KCSchemaAttribute attributes[32];
    gint reserved;
    void *reserved1, *reserved2, *reserved3, *reserved4, *reserved5, *reserved6, *reserved7;
} KCSchema;

// Schema `dev.kcauth.AuthState`. The name is stored as the `xdg:schema` attribute and matched on
// lookup, so it must never change (items stored under another name become invisible).
static const KCSchema schema = {
    "dev.kcauth.AuthState", 0 /* SECRET_SCHEMA_NONE */,
    { { "profile", 0 /* STRING */ }, { "issuer", 0 }, { "client_id", 0 }, { NULL, 0 } },
    0, NULL, NULL, NULL, NULL, NULL, NULL, NULL
};

static struct {
    gboolean (*store)(const KCSchema *, const gchar *, const gchar *, const gchar *, GCancellable *, GError **, ...);
    gchar *(*lookup)(const KCSchema *, GCancellable *, GError **, ...);
    gboolean (*clear)(const KCSchema *, GCancellable *, GError **, ...);
    GList *(*search)(const KCSchema *, int, GCancellable *, GError **, ...);
    void (*password_free)(gchar *);
    GHashTable *(*retrievable_get_attributes)(SecretRetrievable *);
    SecretService *(*service_get_sync)(int, GCancellable *, GError **);
    SecretCollection *(*collection_for_alias_sync)(SecretService *, const gchar *, int, GCancellable *, GError **);
    gboolean (*collection_get_locked)(SecretCollection *);
    gchar *(*collection_get_label)(SecretCollection *);
    gint (*service_unlock_sync)(SecretService *, GList *, GCancellable *, GList **, GError **);
    void (*object_unref)(void *);
    void (*free)(void *);
    void (*error_free)(GError *);
    const gchar *(*quark_to_string)(GQuark);
    GCancellable *(*cancellable_new)(void);
    void (*cancellable_cancel)(GCancellable *);
    gchar *(*dbus_error_get_remote_error)(const GError *);
    void *(*hash_table_lookup)(GHashTable *, const void *);
    void (*hash_table_unref)(GHashTable *);
    GDBusConnection *(*bus_get_sync)(int, GCancellable *, GError **);
    void (*list_free_full)(GList *, void (*)(void *));
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
// The file libsecret came from and GLib's version, for doctor's bug-report bundle.
static char library_path[512];
static const unsigned *glib_version[3];
static char load_error[256];

#define KC_BIND(field, symbol)                                                         \
    if (!(*(void **)&api.field = dlsym(lib, symbol))) {                               \
        snprintf(load_error, sizeof load_error, "%s has no symbol %s", soname, symbol); \
        return;                                                                        \
    }

static void load(void) {
    const char *soname = "libsecret-1.so.0";
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(load_error, sizeof load_error, "%s", dlerror());
        return;
    }
    // dlsym on libsecret's handle also finds GLib/GObject/GIO symbols: they are its dependencies.
    KC_BIND(store, "secret_password_store_sync")
    KC_BIND(lookup, "secret_password_lookup_sync")
    KC_BIND(clear, "secret_password_clear_sync")
    KC_BIND(search, "secret_password_search_sync")
    KC_BIND(password_free, "secret_password_free")
    KC_BIND(retrievable_get_attributes, "secret_retrievable_get_attributes")
    KC_BIND(service_get_sync, "secret_service_get_sync")
    KC_BIND(collection_for_alias_sync, "secret_collection_for_alias_sync")
    KC_BIND(collection_get_locked, "secret_collection_get_locked")
    KC_BIND(collection_get_label, "secret_collection_get_label")
    KC_BIND(service_unlock_sync, "secret_service_unlock_sync")
    KC_BIND(object_unref, "g_object_unref")
    KC_BIND(free, "g_free")
    KC_BIND(error_free, "g_error_free")
    KC_BIND(quark_to_string, "g_quark_to_string")
    KC_BIND(cancellable_new, "g_cancellable_new")
    KC_BIND(cancellable_cancel, "g_cancellable_cancel")
    KC_BIND(dbus_error_get_remote_error, "g_dbus_error_get_remote_error")
    KC_BIND(hash_table_lookup, "g_hash_table_lookup")
    KC_BIND(hash_table_unref, "g_hash_table_unref")
    KC_BIND(bus_get_sync, "g_bus_get_sync")
    KC_BIND(list_free_full, "g_list_free_full")
    // libsecret exports no version of its own; the file it was loaded from names it, and GLib,
    // its dependency, exports its own (glib_major_version and the others are variables).
    struct link_map *map = NULL;
    char resolved[PATH_MAX];
    if (dlinfo(lib, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name) {
        snprintf(library_path, sizeof library_path, "%s", realpath(map->l_name, resolved) ? resolved : map->l_name);
    }
    glib_version[0] = dlsym(lib, "glib_major_version");
    glib_version[1] = dlsym(lib, "glib_minor_version");
    glib_version[2] = dlsym(lib, "glib_micro_version");
    loaded = 1;
}

int kc_secret_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *kc_secret_load_error(void) { return load_error; }

const char *kc_secret_library_path(void) {
    // Only once loaded, and never loaded here: asking must not start libsecret's threads.
    return loaded && library_path[0] ? library_path : NULL;
}

int kc_secret_glib_version(unsigned *major, unsigned *minor, unsigned *micro) {
    if (!loaded || !glib_version[0] || !glib_version[1] || !glib_version[2]) return 0;
    *major = *glib_version[0];
    *minor = *glib_version[1];
    *micro = *glib_version[2];
    return 1;
}

gboolean kc_secret_store(const gchar *label, const gchar *secret, const gchar *profile,
                         const gchar *issuer, const gchar *client_id,
                         GCancellable *cancellable, GError **error) {
    return api.store(&schema, SECRET_COLLECTION_DEFAULT, label, secret, cancellable, error,
                     "profile", profile, "issuer", issuer, "client_id", client_id, NULL);
}

gchar *kc_secret_lookup(const gchar *profile, GCancellable *cancellable, GError **error) {
    return api.lookup(&schema, cancellable, error, "profile", profile, NULL);
}

gboolean kc_secret_clear(const gchar *profile, GCancellable *cancellable, GError **error) {
    return api.clear(&schema, cancellable, error, "profile", profile, NULL);
}

gboolean kc_secret_clear_exact(const gchar *profile, const gchar *issuer, const gchar *client_id,
                               GCancellable *cancellable, GError **error) {
    return api.clear(&schema, cancellable, error, "profile", profile, "issuer", issuer,
                     "client_id", client_id, NULL);
}

GList *kc_secret_search(const gchar *profile, GCancellable *cancellable, GError **error) {
    return api.search(&schema, 1 << 1 /* SECRET_SEARCH_ALL */, cancellable, error, "profile", profile, NULL);
}

void kc_list_free_objects(GList *list) { api.list_free_full(list, api.object_unref); }

void kc_secret_password_free(gchar *password) { api.password_free(password); }
GHashTable *kc_secret_retrievable_get_attributes(SecretRetrievable *self) { return api.retrievable_get_attributes(self); }
SecretService *kc_secret_service_get_sync(SecretServiceFlags flags, GCancellable *cancellable, GError **error) {
    return api.service_get_sync(flags, cancellable, error);
}
SecretCollection *kc_secret_collection_for_alias_sync(SecretService *service, const gchar *alias, SecretCollectionFlags flags,
                                                   GCancellable *cancellable, GError **error) {
    return api.collection_for_alias_sync(service, alias, flags, cancellable, error);
}
gboolean kc_secret_collection_get_locked(SecretCollection *self) { return api.collection_get_locked(self); }
gchar *kc_secret_collection_get_label(SecretCollection *self) { return api.collection_get_label(self); }

gint kc_secret_service_unlock_collection(SecretService *service, SecretCollection *collection,
                                         GCancellable *cancellable, GError **error) {
    // One-element list on the stack: libsecret only reads `objects` (it takes each proxy's path).
    GList objects = { collection, NULL, NULL };
    GList *unlocked = NULL;
    gint count = api.service_unlock_sync(service, &objects, cancellable, &unlocked, error);
    api.list_free_full(unlocked, api.object_unref);
    return count;
}

void kc_g_object_unref(void *object) { api.object_unref(object); }
void kc_g_free(void *mem) { api.free(mem); }
void kc_g_error_free(GError *error) { api.error_free(error); }
const gchar *kc_g_quark_to_string(GQuark quark) { return api.quark_to_string(quark); }
GCancellable *kc_g_cancellable_new(void) { return api.cancellable_new(); }
void kc_g_cancellable_cancel(GCancellable *cancellable) { api.cancellable_cancel(cancellable); }
gchar *kc_g_dbus_error_get_remote_error(const GError *error) { return api.dbus_error_get_remote_error(error); }
void *kc_g_hash_table_lookup(GHashTable *table, const void *key) { return api.hash_table_lookup(table, key); }
void kc_g_hash_table_unref(GHashTable *table) { api.hash_table_unref(table); }
GDBusConnection *kc_g_bus_get_sync(GBusType bus_type, GCancellable *cancellable, GError **error) {
    return api.bus_get_sync(bus_type, cancellable, error);
}
