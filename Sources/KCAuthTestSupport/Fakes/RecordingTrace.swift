import KCAuthContract
import KCAuthCore
import Synchronization

/// A trace that keeps every event, and the lines the real sink would write (text and JSON), for
/// tests of what a command traces.
public final class RecordingTrace: TraceSink {
    private let recorded = Mutex<[TraceEvent]>([])

    public init() {}

    public var isOn: Bool { true }

    public func record(_ event: TraceEvent) { recorded.withLock { $0.append(event) } }

    public var events: [TraceEvent] { recorded.withLock { $0 } }

    public var names: [String] { events.map(\.name) }

    /// Every event as the real sink lays it out (the time and elapsed fixed).
    public func lines(_ mode: TraceMode = .text) -> String {
        events.map { TraceLine.render(mode, time: 0, elapsed: 0, event: $0.name, fields: $0.lineFields) }.joined()
    }
}
