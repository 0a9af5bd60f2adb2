/// "The store was locked when kcauth last needed it": a note in the runtime cache's directory
/// (`$XDG_RUNTIME_DIR/kcauth/<storage>.locked`, empty, 0600), so that `kcauth prompt`, which
/// never asks a store, can say "store locked" when the cached token no longer answers. The full
/// program writes it when a read of the store fails because it is locked, and removes it when a
/// read succeeds (every write of a cache entry follows one) or `kcauth unlock` opens the store;
/// both programs read it. A store unlocked by something else (the desktop's keyring dialog) keeps
/// its note until the next kcauth command reads it.
public enum StoreLockNote {
    /// The note of a store kind (``StorageKind/recordName``) in the runtime directory.
    public static func file(storage: String, runtimeDirectory: String) -> String {
        runtimeDirectory + "/" + storage + ".locked"
    }
}
