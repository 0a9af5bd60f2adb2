internal import CLibSecret
import Glibc

/// The deadline of one store operation, enforced by one small pthread.
///
/// - At `seconds` it cancels the operation's GCancellable (`g_cancellable_cancel` is thread-safe),
///   which turns a wedged bus or a stopped daemon into `G_IO_ERROR_CANCELLED` instead of a hang
///   (forever, or 2 × 25 s of GDBus timeouts).
/// - With a watchdog, at `seconds + watchdogMargin` it writes one line to stderr and `_exit(5)`s.
///   Needed around anything that may show an unlock prompt: gnome-keyring 42 aborts when a pending
///   prompt is cancelled, and libsecret then often never returns (notes §3 c3), so only leaving
///   the process bounds that case.
///
/// A pthread rather than Dispatch: no queue machinery to start for a process that makes one or two
/// calls, and the thread is joined when the operation ends.
final class LibSecretDeadline: @unchecked Sendable {
    // @unchecked: the mutable state below is guarded by `lock`; the pointers never change.
    static let watchdogMargin = 1.0
    static let watchdogExitStatus: Int32 = 5

    let seconds: Double
    let cancellable: UnsafeMutablePointer<GCancellable>

    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let cancelAt: timespec
    private let killAt: timespec?
    private let watchdogLine: [UInt8]
    private var thread = pthread_t()
    private var running = false
    // Guarded by `lock`.
    private var finished = false
    private var mayCancel: Bool
    private var fired = false

    /// - Parameters:
    ///   - cancels: false for a wait on an unlock prompt: only the watchdog ends it, because
    ///     cancelling a pending prompt makes gnome-keyring 42 abort (notes §3 c3).
    ///   - watchdogMessage: the line the watchdog writes before `_exit` (a newline is added).
    init(seconds: Double, watchdog: Bool, cancels: Bool = true, watchdogMessage: String? = nil) {
        self.seconds = seconds
        cancellable = kc_g_cancellable_new()
        cancelAt = Self.monotonic(after: seconds)
        killAt = watchdog ? Self.monotonic(after: seconds + Self.watchdogMargin) : nil
        mayCancel = cancels
        let message = watchdogMessage ?? "kcauth: the keyring did not answer within \(formatSeconds(seconds)) "
            + "(an unanswered unlock prompt or a hung gnome-keyring-daemon); giving up"
        watchdogLine = Array((message + "\n").utf8)

        pthread_mutex_init(lock, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)  // immune to wall-clock jumps
        pthread_cond_init(wake, &attributes)
        pthread_condattr_destroy(&attributes)

        let context = Unmanaged.passRetained(self).toOpaque()
        let started = pthread_create(&thread, nil, { raw in
            let deadline = Unmanaged<LibSecretDeadline>.fromOpaque(raw!).takeRetainedValue()
            deadline.run()
            return nil
        }, context)
        if started == 0 {
            running = true
        } else {
            // No thread: the calls run without a deadline rather than not at all.
            Unmanaged<LibSecretDeadline>.fromOpaque(context).release()
        }
    }

    deinit {
        pthread_cond_destroy(wake)
        pthread_mutex_destroy(lock)
        wake.deallocate()
        lock.deallocate()
        kc_g_object_unref(cancellable)
    }

    /// Ends the timer thread; call exactly once when the operation is over.
    func finish() {
        guard running else { return }
        pthread_mutex_lock(lock)
        finished = true
        pthread_cond_signal(wake)
        pthread_mutex_unlock(lock)
        pthread_join(thread, nil)
        running = false
    }

    private func run() {
        pthread_mutex_lock(lock)
        var cancelDone = false
        while !finished {
            let now = Self.monotonic(after: 0)
            if !cancelDone, !Self.isBefore(now, cancelAt) {
                cancelDone = true
                if mayCancel {
                    fired = true
                    // Outside the lock: cancel handlers run on this thread and take GLib locks.
                    pthread_mutex_unlock(lock)
                    kc_g_cancellable_cancel(cancellable)
                    pthread_mutex_lock(lock)
                }
                continue
            }
            if let killAt, !Self.isBefore(now, killAt) {
                watchdogLine.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
                _exit(Self.watchdogExitStatus)
            }
            guard var next = cancelDone ? killAt : cancelAt else {
                pthread_cond_wait(wake, lock)
                continue
            }
            pthread_cond_timedwait(wake, lock, &next)
        }
        pthread_mutex_unlock(lock)
    }

    private static func monotonic(after seconds: Double) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let whole = Int(seconds)
        var nanos = now.tv_nsec + Int((seconds - Double(whole)) * 1e9)
        var secs = now.tv_sec + whole
        if nanos >= 1_000_000_000 { nanos -= 1_000_000_000; secs += 1 }
        return timespec(tv_sec: secs, tv_nsec: nanos)
    }

    private static func isBefore(_ a: timespec, _ b: timespec) -> Bool {
        a.tv_sec < b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec < b.tv_nsec)
    }
}

/// "5 s", "2.5 s": deadlines in messages, without Foundation's formatters.
func formatSeconds(_ seconds: Double) -> String {
    let tenths = Int((seconds * 10).rounded())
    return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
}
