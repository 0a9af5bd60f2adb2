#if canImport(Glibc)
import Glibc
#endif

/// Writes trace lines (``TraceLine``) to a descriptor — standard error, or the file of
/// `KCAUTH_DEBUG_FILE` (``TraceFile``) — stamped with the time and the milliseconds since the
/// writer was made. One `write(2)` per line, so lines of threads and of the two programs do not
/// interleave inside a line. Not locked: the full program's sink serialises its calls.
public struct TraceWriter: Sendable {
    public let fd: Int32
    public let mode: TraceMode
    /// CLOCK_MONOTONIC seconds when the writer was made.
    let start: Double

    public init(fd: Int32, mode: TraceMode) {
        self.fd = fd
        self.mode = mode
        start = Self.monotonic()
    }

    /// Seconds since the writer was made (CLOCK_MONOTONIC).
    public var elapsed: Double { Self.monotonic() - start }

    public func write(event: String, fields: [TraceLine.Member]) {
        var realtime = timespec()
        clock_gettime(CLOCK_REALTIME, &realtime)
        let time = Double(realtime.tv_sec) + Double(realtime.tv_nsec) / 1e9
        var line = TraceLine.render(mode, time: time, elapsed: elapsed, event: event, fields: fields)
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return   // a trace that cannot be written is dropped, never an error of the command
                }
                offset += n
            }
        }
    }

    static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
