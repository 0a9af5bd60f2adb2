/// A store that can say, without asking anyone anything, whether it is open and until when
/// (the encrypted store), for `status` and `doctor`.
public protocol StoreStateDescribing: Sendable {
    /// Its state; nil when there is nothing to say (it could not be read).
    var encryptedState: EncryptedStoreState? { get }
}
