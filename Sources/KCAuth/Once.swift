import Synchronization

/// A value computed once, on first use, thread-safely (the configuration file of a context).
final class Once<Value: Sendable>: Sendable {
    private let stored = Mutex<Value?>(nil)

    func value(_ make: () -> Value) -> Value {
        stored.withLock { stored in
            if let stored { return stored }
            let made = make()
            stored = made
            return made
        }
    }
}
