import Synchronization

/// A flag set on one thread and read on another (the login's and the one that takes signals).
final class Answered: Sendable {
    private let value = Atomic<Bool>(false)

    func set() { value.store(true, ordering: .releasing) }

    var isSet: Bool { value.load(ordering: .acquiring) }
}
