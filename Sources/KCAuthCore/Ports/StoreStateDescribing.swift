/// A store that can say, without asking anyone anything, whether it is open and until when
/// (the encrypted store: "unlocked until …", "locked"), for `status` and `doctor` (issue 19 #5).
public protocol StoreStateDescribing: Sendable {
    /// A few words for a person, or nil when there is nothing to say.
    var stateSummary: String? { get }
}
