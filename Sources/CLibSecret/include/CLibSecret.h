// libsecret (and the GLib calls around it) for KCAuthSystem, loaded on first use with dlopen.
//
// Why dlopen: linking libsecret makes every kcauth process load it with GLib, GObject and GIO
// at start-up (≈2 ms), although `kcauth token` usually answers from the runtime cache without
// the keyring (README, "Speed"). Why our own declarations instead of <libsecret/secret.h>: those
// headers need GLib's include paths from pkg-config, and SwiftPM then also links the libraries,
// which is what this module avoids. What is declared here is exactly what kcauth calls, with the
// types and values of the stable libsecret-1 / GLib 2 ABI (checked against the real headers by
// Tests/Integration/test_abi.py).
//
// Also why wrappers at all: secret_password_*_sync take NULL-terminated attribute lists (C
// variadics), which Swift cannot call; each wrapper fixes one attribute set.
#ifndef KC_CLIBSECRET_H
#define KC_CLIBSECRET_H

#include <stddef.h>

typedef int gboolean;
typedef char gchar;
typedef int gint;
typedef unsigned int guint;
typedef unsigned int GQuark;

// Complete structs where kcauth reads fields (GError, GList) or where GLib's own headers make
// them complete, so Swift imports them as typed pointers; the rest stay opaque.
typedef struct _GError { GQuark domain; gint code; gchar *message; } GError;
typedef struct _GList { void *data; struct _GList *next; struct _GList *prev; } GList;
typedef struct _GCancellable { void *kc_opaque; } GCancellable;
typedef struct _SecretService { void *kc_opaque; } SecretService;
typedef struct _SecretCollection { void *kc_opaque; } SecretCollection;
typedef struct _GHashTable GHashTable;
typedef struct _GDBusConnection GDBusConnection;
typedef struct _SecretRetrievable SecretRetrievable;

// GIOErrorEnum, GDBusError, SecretError, GBusType and libsecret flags: the values kcauth uses,
// as named enums with GLib's `int` representation (Swift then imports them as GLib's headers do).
typedef enum : int {
    G_IO_ERROR_FAILED = 0, G_IO_ERROR_NOT_FOUND = 1, G_IO_ERROR_PERMISSION_DENIED = 14,
    G_IO_ERROR_CLOSED = 18, G_IO_ERROR_CANCELLED = 19, G_IO_ERROR_TIMED_OUT = 24,
    G_IO_ERROR_CONNECTION_REFUSED = 39, G_IO_ERROR_BROKEN_PIPE = 44
} GIOErrorEnum;
typedef enum : int {
    G_DBUS_ERROR_SERVICE_UNKNOWN = 2, G_DBUS_ERROR_NAME_HAS_NO_OWNER = 3, G_DBUS_ERROR_NO_REPLY = 4,
    G_DBUS_ERROR_TIMEOUT = 12, G_DBUS_ERROR_DISCONNECTED = 15, G_DBUS_ERROR_TIMED_OUT = 20
} GDBusError;
typedef enum : int { SECRET_ERROR_IS_LOCKED = 2 } SecretError;
typedef enum : int { G_BUS_TYPE_SESSION = 2 } GBusType;
typedef enum : int { SECRET_SERVICE_NONE = 0 } SecretServiceFlags;
typedef enum : int { SECRET_COLLECTION_NONE = 0 } SecretCollectionFlags;
#define SECRET_COLLECTION_DEFAULT "default"

// Loads libsecret-1.so.0 (and with it GLib) once, thread-safely: 1 when every function below is
// usable, else 0 and kc_secret_load_error() says why. Nothing below may be called before.
int kc_secret_load(void);
const char *kc_secret_load_error(void);
// The file libsecret was loaded from (symbolic links resolved: its name carries the library's
// version), or NULL when this process has not loaded it; never loads it.
const char *kc_secret_library_path(void);
// GLib's version, as the loaded GLib says; 0 when libsecret is not loaded.
int kc_secret_glib_version(unsigned *major, unsigned *minor, unsigned *micro);

// Items of schema `dev.kcauth.AuthState` (attributes profile, issuer, client_id).
gboolean kc_secret_store(const gchar *label, const gchar *secret, const gchar *profile,
                         const gchar *issuer, const gchar *client_id,
                         GCancellable *cancellable, GError **error);
// The secret of the first unlocked item of `profile`, or NULL (not stored *or* locked).
// Free with secret_password_free (it zeroes the memory).
gchar *kc_secret_lookup(const gchar *profile, GCancellable *cancellable, GError **error);
gboolean kc_secret_clear(const gchar *profile, GCancellable *cancellable, GError **error);
gboolean kc_secret_clear_exact(const gchar *profile, const gchar *issuer, const gchar *client_id,
                               GCancellable *cancellable, GError **error);
// All unlocked items of `profile` (SecretRetrievable*, secrets not loaded); free with
// kc_list_free_objects.
GList *kc_secret_search(const gchar *profile, GCancellable *cancellable, GError **error);
void kc_list_free_objects(GList *list);

void kc_secret_password_free(gchar *password);
GHashTable *kc_secret_retrievable_get_attributes(SecretRetrievable *self);
SecretService *kc_secret_service_get_sync(SecretServiceFlags flags, GCancellable *cancellable, GError **error);
SecretCollection *kc_secret_collection_for_alias_sync(SecretService *service, const gchar *alias, SecretCollectionFlags flags,
                                                   GCancellable *cancellable, GError **error);
gboolean kc_secret_collection_get_locked(SecretCollection *self);
gchar *kc_secret_collection_get_label(SecretCollection *self);
// secret_service_unlock_sync on one collection: asks the Secret Service to unlock it, which may
// show the keyring's own password dialog and then blocks until the prompt completes (there is no
// D-Bus timeout on prompts). Returns how many objects were unlocked: 0 without an error means the
// prompt was dismissed.
gint kc_secret_service_unlock_collection(SecretService *service, SecretCollection *collection,
                                         GCancellable *cancellable, GError **error);

void kc_g_object_unref(void *object);
void kc_g_free(void *mem);
void kc_g_error_free(GError *error);
const gchar *kc_g_quark_to_string(GQuark quark);
GCancellable *kc_g_cancellable_new(void);
void kc_g_cancellable_cancel(GCancellable *cancellable);
gchar *kc_g_dbus_error_get_remote_error(const GError *error);
void *kc_g_hash_table_lookup(GHashTable *table, const void *key);
void kc_g_hash_table_unref(GHashTable *table);
GDBusConnection *kc_g_bus_get_sync(GBusType bus_type, GCancellable *cancellable, GError **error);

#endif
