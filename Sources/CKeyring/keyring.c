// The system calls behind CKeyring.h; see there for why they are in C.
#include "CKeyring.h"

#include <linux/keyctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int32_t kc_key_add_user(const char *description, const void *payload, size_t len, int32_t keyring) {
    return (int32_t)syscall(SYS_add_key, "user", description, payload, len, keyring);
}

int32_t kc_key_search_user(int32_t keyring, const char *description) {
    return (int32_t)syscall(SYS_keyctl, KEYCTL_SEARCH, keyring, "user", description, 0);
}

long kc_key_read(int32_t key, void *buffer, size_t len) {
    return syscall(SYS_keyctl, KEYCTL_READ, key, buffer, len);
}

long kc_key_describe(int32_t key, char *buffer, size_t len) {
    return syscall(SYS_keyctl, KEYCTL_DESCRIBE, key, buffer, len);
}

long kc_key_setperm(int32_t key, uint32_t perm) {
    return syscall(SYS_keyctl, KEYCTL_SETPERM, key, perm);
}

long kc_key_set_timeout(int32_t key, unsigned int seconds) {
    return syscall(SYS_keyctl, KEYCTL_SET_TIMEOUT, key, seconds);
}

long kc_key_revoke(int32_t key) {
    return syscall(SYS_keyctl, KEYCTL_REVOKE, key);
}

long kc_key_unlink(int32_t key, int32_t keyring) {
    return syscall(SYS_keyctl, KEYCTL_UNLINK, key, keyring);
}
