import KCAuthContract

/// Where the trace of `--debug` goes (standard error, `KCAUTH_DEBUG_FILE`, a test's recording):
/// one ``TraceEvent`` per thing kcauth does — a request and its answer, a cache decision, the
/// flow it chose, a store or keyring call, a lock wait, a browser launch, a connection to the
/// loopback listener, a device-flow poll, a forward's request. The adapters and mechanisms emit
/// events; the sink stamps and writes them (``TraceLine`` in the contract lays them out).
///
/// Secrets cannot reach it: an event's values are typed, and a ``Secret`` or ``WireText`` is
/// shown redacted. When debugging is off the sink is ``NoTrace`` and emitting costs one check.
public protocol TraceSink: Sendable {
    /// Whether events are kept: emitters build an event (and time what they trace) only then.
    var isOn: Bool { get }
    func record(_ event: TraceEvent)
}

extension TraceSink {
    /// Records the event if the trace is on; the event is not even built otherwise.
    public func emit(_ event: @autoclosure () -> TraceEvent) {
        if isOn { record(event()) }
    }

    /// Runs `body` and, with the trace on, records the event `describe` makes of its result and
    /// the milliseconds it took (`ms`), thrown errors included.
    public func timed<T>(_ clock: any TimeSource, _ body: () throws -> T,
                         _ describe: (Result<T, any Error>) -> TraceEvent) rethrows -> T {
        guard isOn else { return try body() }
        let start = clock.now()
        func finish(_ result: Result<T, any Error>) {
            var event = describe(result)
            event.fields.append(TraceField("ms", .milliseconds(clock.now() - start)))
            record(event)
        }
        do {
            let value = try body()
            finish(.success(value))
            return value
        } catch {
            finish(.failure(error))
            throw error
        }
    }
}

/// The sink when debugging is off: nothing is built, nothing is written.
public struct NoTrace: TraceSink {
    public init() {}
    public var isOn: Bool { false }
    public func record(_ event: TraceEvent) {}
}
