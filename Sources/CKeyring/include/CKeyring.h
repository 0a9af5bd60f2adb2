// CKeyring: the kernel key retention service (keyrings(7)) through the raw add_key(2) and
// keyctl(2) system calls, for the encrypted store's unlocked data key
// (keyrings(7): the user keyring outlives the process, so one `kcauth unlock` serves later ones).
//
// Why C: syscall(2) is variadic, and Swift cannot call variadic C functions; and the kernel's
// constants are plain macros here. No libkeyutils: two system calls are all kcauth needs.
// Every function returns -1 with errno set on failure, as the system calls do.
#ifndef KC_CKEYRING_H
#define KC_CKEYRING_H

#include <stddef.h>
#include <stdint.h>

static const int32_t KC_KEY_SPEC_USER_KEYRING = -4;   // KEY_SPEC_USER_KEYRING: one per uid

// Possessor: everything. User (same uid, even without possession, e.g. in another session
// keyring): view, read, write, search, setattr, so any process of the user can find, read and
// revoke it. Group and other: nothing.
static const uint32_t KC_KEY_PERM_PRIVATE = 0x3f000000u | 0x002f0000u;

// add_key("user", description, payload, len, keyring): the key's serial. An existing key with
// the same type and description in that keyring is updated in place (atomic for readers).
int32_t kc_key_add_user(const char *description, const void *payload, size_t len, int32_t keyring);
// keyctl(KEYCTL_SEARCH, keyring, "user", description, 0): the serial of a live key.
int32_t kc_key_search_user(int32_t keyring, const char *description);
// keyctl(KEYCTL_READ): the payload's length (which may exceed `len`; then nothing is copied).
long kc_key_read(int32_t key, void *buffer, size_t len);
// keyctl(KEYCTL_DESCRIBE): "type;uid;gid;perm;description" and its NUL; the length needed
// (which may exceed `len`; then nothing is copied).
long kc_key_describe(int32_t key, char *buffer, size_t len);
long kc_key_setperm(int32_t key, uint32_t perm);
long kc_key_set_timeout(int32_t key, unsigned int seconds);
long kc_key_revoke(int32_t key);
long kc_key_unlink(int32_t key, int32_t keyring);

#endif
