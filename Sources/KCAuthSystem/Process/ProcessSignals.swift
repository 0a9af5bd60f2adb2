#if canImport(Glibc)
import Glibc
#endif

/// The signals that end kcauth or that it passes on, taken for the whole process in one place.
///
/// A signal sent to a process is delivered to any one of its threads that does not block it
/// (signal(7)), and pthread_sigmask(3) changes the calling thread's mask only. Libraries start
/// threads of their own (GLib's GDBus worker inside libsecret, libcurl's threaded resolver), so
/// a verb that blocks SIGTERM in its own thread still dies of it once the keyring has been read.
/// So the program's entry point calls ``takeOver()`` before any thread exists: the signals are
/// blocked there, every thread started later inherits the mask, and one thread of kcauth's own
/// takes them with sigwaitinfo(2). What it does with one depends on the moment:
///
/// - while a verb passes signals on (``hold(_:)``: `exec --keep-fresh`, `ssh`, `forward-agent`),
///   it keeps them, in order, for the verb to take (``next()``);
/// - otherwise kcauth ends by the signal, as if it had not been handled (a shell reports 128+N,
///   130 for Ctrl-C), after the clean-ups registered for that moment
///   (``onEnding(_:waitsForAPerson:_:)``, such as the terminal's echo at a passphrase prompt)
///   — and, when a request that changes the stored
///   session is at the provider (``finishing(_:)``: a refresh under the refresh lock), once its
///   answer is stored: killed in between, kcauth would lose a refresh token the provider has
///   already rotated. That wait is bounded (``finishingGrace``); a second signal ends it at once.
///
/// Programs started from kcauth get an empty mask and default dispositions (``SpawnSignals``,
/// ``CommandExec/resetSignals()``).
public enum ProcessSignals {
    /// The signals taken: those a terminal or a supervisor ends a program with, and the two
    /// user signals `exec --keep-fresh` passes on.
    public static let taken: [Int32] = [SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2]
    /// How long an ending waits for a refresh in flight to be stored.
    public static let finishingGrace = 10.0

    /// A signal kept for the verb that passes signals on.
    public struct Received: Sendable, Equatable {
        public let signal: Int32
        /// Sent by the kernel for the terminal (Ctrl-C, Ctrl-\, a hang-up), to the whole
        /// foreground process group; false when a process sent it (kill(2), a supervisor).
        public let byTerminal: Bool

        public init(signal: Int32, byTerminal: Bool) {
            self.signal = signal
            self.byTerminal = byTerminal
        }
    }

    /// Blocks the taken signals in the calling thread and starts the thread that takes them.
    /// Call it first in `main`, before anything can start a thread. Idempotent.
    public static func takeOver() {
        guard state.begin() else { return }
        var set = takenSet
        pthread_sigmask(SIG_BLOCK, &set, nil)
        var thread = pthread_t()
        guard pthread_create(&thread, nil, { _ in
            ProcessSignals.takeForever()
        }, nil) == 0 else {
            // No thread to take them: the signals act as they would without kcauth's help.
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            state.abandon()
            return
        }
        pthread_detach(thread)
    }

    /// Whether ``takeOver()`` has run in this process.
    public static var isTakenOver: Bool { state.withLock { $0.started } }

    /// While on (counted: each `true` needs its `false`), the taken signals are kept for the verb
    /// instead of ending kcauth; the last `false` drops those nobody took. A program that did not
    /// call ``takeOver()`` gets it now, from this thread (threads it started before keep their masks).
    public static func hold(_ on: Bool) {
        if on, !isTakenOver { takeOver() }
        state.withLock { s in
            s.holds = max(0, s.holds + (on ? 1 : -1))
            if s.holds == 0 { s.kept.removeAll() }
        }
    }

    /// The oldest kept signal, taken; nil when none came.
    public static func next() -> Received? {
        state.withLock { s in s.kept.isEmpty ? nil : s.kept.removeFirst() }
    }

    /// Runs `body`; if a signal ends kcauth meanwhile, `cleanUp` runs first (on the taking
    /// thread: it must not wait for `body`'s thread). `waitsForAPerson`: `body` waits for someone
    /// to type (a passphrase prompt); an ending then does not wait for a refresh in flight
    /// (``finishing(_:)``), since the person who pressed Ctrl-C is the one it waits for.
    public static func onEnding<T>(_ cleanUp: @escaping @Sendable () -> Void, waitsForAPerson: Bool = false,
                                   _ body: () throws -> T) rethrows -> T {
        let id = state.withLock { s in
            s.nextID += 1
            s.cleanUps.append((s.nextID, cleanUp))
            if waitsForAPerson { s.prompting += 1 }
            return s.nextID
        }
        defer {
            state.withLock { s in
                s.cleanUps.removeAll { $0.id == id }
                if waitsForAPerson { s.prompting -= 1 }
            }
        }
        return try body()
    }

    /// Runs `body`, which stores what the provider answers (a refresh under the refresh lock):
    /// a signal that would end kcauth meanwhile ends it once `body` is over, or after
    /// ``finishingGrace`` seconds, or at a second signal.
    public static func finishing<T>(_ body: () throws -> T) rethrows -> T {
        state.withLock { $0.finishing += 1 }
        defer {
            let deferred: Int32? = state.withLock { s in
                s.finishing -= 1
                guard s.finishing == 0, let sig = s.deferred, !s.ending else { return nil }
                s.ending = true
                return sig
            }
            if let deferred { end(by: deferred) }
        }
        return try body()
    }

    /// Ends the process by `signal` as an unhandled one would end it (its clean-ups run first);
    /// returns only when the signal does not end a process.
    public static func end(by signal: Int32) {
        let cleanUps = state.withLock { s in
            defer { s.cleanUps.removeAll() }
            return s.cleanUps
        }
        for (_, cleanUp) in cleanUps.reversed() { cleanUp() }
        Glibc.signal(signal, SIG_DFL)
        var one = sigset_t()
        sigemptyset(&one)
        sigaddset(&one, signal)
        pthread_sigmask(SIG_UNBLOCK, &one, nil)
        raise(signal)  // to this thread, which no longer blocks it: the default action ends the process
    }

    // MARK: the taking thread

    static var takenSet: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for s in taken { sigaddset(&set, s) }
        return set
    }

    /// The taking thread's name (/proc/PID/task/TID/comm): the one thread in which the taken
    /// signals show as not blocked, while it waits for them in sigwaitinfo.
    public static let threadName = "kcauth-signals"

    private static func takeForever() -> Never {
        // pthread_setname_np(3) and prctl(2) are not in Glibc's Swift module; the file is the same name.
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        if fd >= 0 {
            _ = threadName.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
            close(fd)
        }
        var set = takenSet
        while true {
            var info = siginfo_t()
            let sig = sigwaitinfo(&set, &info)
            guard sig > 0 else { continue }  // EINTR
            if keep(sig, info) { continue }
            endWhenFinished(sig, &set)
        }
    }

    /// Keeps `sig` for a verb that holds signals; false when none does.
    private static func keep(_ sig: Int32, _ info: siginfo_t) -> Bool {
        // si_code > 0 (SI_KERNEL): generated by the kernel, as the terminal's signals are;
        // kill(2), sigqueue(3) and tgkill(2) give SI_USER, SI_QUEUE and SI_TKILL (<= 0).
        let received = Received(signal: sig, byTerminal: info.si_code > 0)
        return state.withLock { s in
            guard s.holds > 0 else { return false }
            s.kept.append(received)
            return true
        }
    }

    private static func endWhenFinished(_ sig: Int32, _ set: inout sigset_t) {
        enum Now { case end, wait, nothing }
        let now: Now = state.withLock { s in
            if s.ending { return .nothing }  // another thread is ending the process
            if s.finishing > 0, s.prompting == 0 {
                s.deferred = sig
                return .wait
            }
            s.ending = true
            return .end
        }
        switch now {
        case .nothing: return
        case .end: return end(by: sig)
        case .wait: break
        }
        // The thread in `finishing` ends the process when it is done; this one ends it when the
        // grace is over or another signal comes.
        let deadline = Monotonic.now + finishingGrace
        while Monotonic.now < deadline {
            var info = siginfo_t()
            var pause = timespec(tv_sec: 0, tv_nsec: 50_000_000)
            if sigtimedwait(&set, &info, &pause) > 0 { break }
            if state.withLock({ $0.ending }) { return }
        }
        let mine = state.withLock { s in
            defer { s.ending = true }
            return !s.ending
        }
        if mine { end(by: sig) }
    }

    // MARK: state

    private static let state = SharedState()

    private struct Values {
        var started = false
        var holds = 0
        var kept: [Received] = []
        var cleanUps: [(id: Int, run: @Sendable () -> Void)] = []
        var nextID = 0
        var finishing = 0
        var prompting = 0
        var deferred: Int32?
        var ending = false
    }

    private final class SharedState: @unchecked Sendable {
        // @unchecked: `values` is only touched under `mutex`.
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private var values = Values()

        init() { pthread_mutex_init(mutex, nil) }

        func withLock<T>(_ body: (inout Values) -> T) -> T {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return body(&values)
        }

        func begin() -> Bool {
            withLock { s in
                guard !s.started else { return false }
                s.started = true
                return true
            }
        }

        func abandon() { withLock { $0.started = false } }
    }

    private enum Monotonic {
        static var now: Double {
            var t = timespec()
            clock_gettime(CLOCK_MONOTONIC, &t)
            return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
        }
    }
}
