internal import CWallClock
import Foundation
import SimulationCore
import Synchronization

/// What app code reaches without `AppClock`: the wall clock (`Date()`, `Date.now`), run-loop
/// timers (`Timer.scheduledTimer`, `RunLoop.add`) and the main queue (`DispatchQueue.main.async`,
/// `asyncAfter`). A replay would otherwise see them fail without a word: the wall clock is hours
/// or years past the trace, no run loop runs the timers and nothing drains the main queue.
///
/// On Linux the executable defines the C functions behind them (the `CWallClock` target), so
/// Foundation and Dispatch call the executable's versions, which forward to the system's unless
/// a replay is involved:
/// - **Wall clock**: during a callback the replay's thread reads the callback's virtual instant
///   (`CLOCK_REALTIME`, `gettimeofday`, `time`); each read there is counted. Reads on
///   other threads (the app's Swift tasks, its own queues) cannot be told apart from anyone
///   else's and get the real time.
/// - **Timers** (Foundation `Timer`s only, recognised by their fire function) added to a run loop by app code (in a callback, or a task it started) are not
///   added: the simulated phone fires them in virtual time, as `AppClock.scheduledTimer` does.
/// - **Main-queue work** sent by app code is not enqueued: it runs in virtual time on the
///   replay's thread, after its delay, as `AppClock.asyncAfter` does.
///
/// Each is noted as a diagnostic of the run naming what was used and the `AppClock`
/// replacement (prefixes `wall clock:`, `timer:`, `main queue:`). What no run can claim (sent
/// from a thread that is neither in a callback nor in an app's task while runs are alive) goes
/// to the real main queue or run loop and is counted for the whole command (`commandFindings`,
/// printed as warnings when the process exits).
/// Elsewhere (Apple platforms) none of this applies and `isInterposing` is `false`.
package enum WallClock {
    /// Whether Foundation and Dispatch reach the executable's versions of the functions, so
    /// wall-clock reads, timers and main-queue work are caught in this process.
    package static var isInterposing: Bool { cwallclock_is_interposing() != 0 }

    /// Makes the real-time clock of the calling thread read `instant` until `end()`.
    package static func begin(at instant: SimInstant) {
        _ = installHandlers
        cwallclock_begin(instant.nanosecondsSinceEpoch)
    }

    /// Ends `begin(at:)`; returns how many `Date()` reads it answered.
    package static func end() -> Int { Int(cwallclock_end()) }

    private static let installHandlers: Void = {
        DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
        // A probe `Timer` shows which run-loop timers are Foundation's: only those are offered.
        cwallclock_begin_timer_probe()
        _ = Timer(timeInterval: 1, repeats: false) { _ in }
        _ = cwallclock_end_timer_probe()
        cwallclock_install(takeMainQueueWork, takeTimer)
    }()

    /// Set on the main queue: whoever reads it is running main-queue work (main-actor code).
    private static let mainQueueKey = DispatchSpecificKey<Bool>()

    /// Whether main-actor code may run on the calling thread: the main thread, or a thread
    /// draining the main queue (after `dispatchMain()` Dispatch lends the main queue to a
    /// worker thread).
    static var isMainActorThread: Bool {
        Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) == true
    }

    // MARK: - Findings for the whole command

    /// Facade runs alive in the process (hosts not yet freed).
    static let liveRuns = Atomic<Int>(0)
    /// Main-queue blocks and run-loop timers counted in `commandFindings`.
    package static let unclaimedMainQueueWork = Atomic<Int>(0)
    package static let unclaimedTimers = Atomic<Int>(0)

    /// What app code may have sent to the main queue or a run loop while facade runs were alive,
    /// from a thread no run could claim: one line each, empty when nothing was. Under `--jobs`
    /// several runs share the process and its main queue, so these belong to the command.
    package static var commandFindings: [String] {
        var lines: [String] = []
        let work = unclaimedMainQueueWork.load(ordering: .relaxed)
        if work > 0 {
            lines.append(
                "main queue: \(work) block\(work == 1 ? "" : "s") sent to DispatchQueue.main while runs were "
                    + "replaying, from outside the app's callbacks and tasks, so tied to no run: they did not run "
                    + "in virtual time; use AppClock.asyncAfter(seconds:execute:)")
        }
        let timers = unclaimedTimers.load(ordering: .relaxed)
        if timers > 0 {
            lines.append(
                "timer: \(timers) run-loop timer\(timers == 1 ? "" : "s") scheduled while runs were replaying, "
                    + "from outside the app's callbacks and tasks, so tied to no run: they did not fire in "
                    + "virtual time; use AppClock.scheduledTimer(withTimeInterval:repeats:block:)")
        }
        return lines
    }

    /// Prints `commandFindings` as warnings on standard error when the process exits: once per
    /// process, registered by the first run.
    static let reportAtExit: Void = {
        atexit {
            for line in WallClock.commandFindings {
                FileHandle.standardError.write(Data("warning: \(line)\n".utf8))
            }
        }
    }()

    // MARK: - Handlers the C functions call

    /// A block sent to the main queue. Runs it in virtual time when the caller is the app
    /// (a host is bound: a callback, or a task it started).
    private static let takeMainQueueWork: cwallclock_main_queue_handler = { block, delayNanoseconds in
        guard let block else { return 0 }
        guard let host = SimulationHost.current else {
            if liveRuns.load(ordering: .relaxed) > 0 { unclaimedMainQueueWork.add(1, ordering: .relaxed) }
            return 0
        }
        let work = CapturedBlock(block)
        // Swift 6 infers `@MainActor` for a closure given to `DispatchQueue.main.async`, and
        // checks it when the closure runs: off the main thread it traps. So the block runs only
        // where main-actor code may run; elsewhere it is dropped, and the diagnostic says so.
        guard host.wallClock.isReplayOnMainActor else {
            host.noteFinding(
                "main queue: DispatchQueue.main.async or asyncAfter during \(host.callback): not run, because "
                    + "this replay is not on the main thread (matrix --jobs above 1), where main-actor code may "
                    + "not run; use AppClock.asyncAfter(seconds:execute:)")
            return 1
        }
        host.noteFinding(
            "main queue: DispatchQueue.main.async or asyncAfter during \(host.callback): run in virtual time "
                + "on the replay's thread (the main thread or actor); use AppClock.asyncAfter(seconds:execute:)")
        // `DispatchTime.now()` is frozen during a callback, so the delay is what the app asked
        // for; from a task it is measured on the real clock and rounded to the millisecond, so
        // the outcome may vary from run to run, and the diagnostic says so.
        guard delayNanoseconds >= 0 else { return 1 }
        let isVirtual = cwallclock_is_virtual() != 0
        if !isVirtual && delayNanoseconds > 0 { host.noteFinding(notRepeatable("DispatchQueue.main.asyncAfter")) }
        let delay = isVirtual ? delayNanoseconds : roundedToMilliseconds(delayNanoseconds)
        host.schedule(at: host.now.advanced(byNanoseconds: delay)) { work.run() }
        return 1
    }

    /// A run-loop timer about to be added to a run loop (its `info` is the Foundation `Timer`).
    private static let takeTimer: cwallclock_timer_handler = { info in
        guard let info else { return 0 }
        guard let host = SimulationHost.current else {
            if liveRuns.load(ordering: .relaxed) > 0 { unclaimedTimers.add(1, ordering: .relaxed) }
            return 0
        }
        let timer = Unmanaged<Timer>.fromOpaque(info).takeUnretainedValue()
        // Added to a second mode: already the phone's.
        guard host.adopt(timer) else { return 1 }
        let isVirtual = cwallclock_is_virtual() != 0
        // `Timer(timeInterval:…)` read `Date()` for its fire date: Foundation's read, not the app's.
        if isVirtual { cwallclock_forgive_read() }
        host.noteFinding(
            "timer: Timer.scheduledTimer or RunLoop.add during \(host.callback): fired in virtual time on the "
                + "replay's thread; use AppClock.scheduledTimer(withTimeInterval:repeats:block:)")
        // On the replay's thread the fire date was computed on the virtual clock; in a task, on
        // the real one (rounded to the millisecond, as the read jitters).
        // Reading and setting `fireDate` read the clock too (Core Foundation converts it):
        // Foundation's reads, not the app's.
        let reads = cwallclock_counted_reads()
        defer { cwallclock_restore_counted_reads(reads) }
        let seconds = timer.fireDate.timeIntervalSince(isVirtual ? host.date : Date())
        let nanoseconds = Int64(min(max(seconds, 0), 9e9) * 1e9)
        let delay = isVirtual ? (nanoseconds + 500) / 1_000 * 1_000 : roundedToMilliseconds(nanoseconds)
        if !isVirtual && nanoseconds > 0 { host.noteFinding(notRepeatable("Timer.scheduledTimer or RunLoop.add")) }
        let interval = timer.timeInterval > 0 ? timer.timeInterval : nil
        AppClock.schedule(timer, on: host, at: host.now.advanced(byNanoseconds: delay), every: interval)
        return 1
    }

    /// Work sent from an app's task: its delay was read on the real clock, which the replay
    /// does not control.
    private static func notRepeatable(_ api: String) -> String {
        "wall clock: \(api) from an app's task: its delay was measured on the real clock (to the "
            + "millisecond), so this run may not be repeatable byte for byte; use AppClock, whose delays are virtual"
    }

    private static func roundedToMilliseconds(_ nanoseconds: Int64) -> Int64 {
        (nanoseconds + 500_000) / 1_000_000 * 1_000_000
    }

    /// A block the main-queue handler took: run at most once, released when dropped.
    private final class CapturedBlock {
        private let pointer: UnsafeMutableRawPointer

        init(_ pointer: UnsafeMutableRawPointer) { self.pointer = pointer }

        func run() { cwallclock_run_block(pointer) }

        deinit { cwallclock_release_block(pointer) }
    }
}

/// One run's share of `WallClock`: which callback runs, what app code was caught doing there,
/// and the timers the phone took. Findings may come from the app's tasks on other threads, so
/// they are behind a lock until the callback ends.
final class WallClockFindings: @unchecked Sendable {
    private let lock = NSLock()
    private var currentCallback = "the app's launch"
    private var replayIsOnMainActor = false

    /// The callback being delivered, as the diagnostics name it. Read from the app's tasks too.
    var callback: String { lock.withLock { currentCallback } }
    /// Whether the replay delivers its callbacks where main-queue work may run: the main
    /// thread (the command line's `replay`, and `matrix` with one job) or the main actor.
    var isReplayOnMainActor: Bool { lock.withLock { replayIsOnMainActor } }
    private var pending: [String] = []
    private var adopted: [ObjectIdentifier: WeakTimer] = [:]

    init() {
        _ = WallClock.reportAtExit
        WallClock.liveRuns.add(1, ordering: .relaxed)
    }

    deinit { WallClock.liveRuns.subtract(1, ordering: .relaxed) }

    /// Runs app code for `callback` with the replay's thread reading `instant` as the wall
    /// clock; hands back the callback's `Date()` reads.
    func run(_ callback: String, at instant: SimInstant, _ body: () -> Void) -> Int {
        WallClock.begin(at: instant)
        let onMainActor = isMainActorThread()
        lock.withLock {
            currentCallback = callback
            replayIsOnMainActor = onMainActor
        }
        body()
        return WallClock.end()
    }

    /// `WallClock.isMainActorThread`, remembering the main thread once it is seen: asking
    /// Foundation costs two system calls a callback, which was a large part of a replay's time
    /// through the facade. A thread is the main thread for its whole life; whether another
    /// thread drains the main queue can change, so that is asked every time.
    private func isMainActorThread() -> Bool {
        let thread = pthread_self()
        if let knownMainThread, pthread_equal(knownMainThread, thread) != 0 { return true }
        let answer = WallClock.isMainActorThread
        if answer && Thread.isMainThread { knownMainThread = thread }
        return answer
    }

    /// The main thread, once a callback ran on it (only the replay's thread writes it).
    private var knownMainThread: pthread_t?

    func note(_ message: String) { lock.withLock { pending.append(message) } }

    /// What was noted since the last call, in order.
    func take() -> [String] {
        lock.withLock {
            defer { pending.removeAll() }
            return pending
        }
    }

    /// Takes `timer` for the phone: `false` when it already was (added to a second mode).
    func adopt(_ timer: Timer) -> Bool {
        lock.withLock {
            let key = ObjectIdentifier(timer)
            if adopted[key]?.value === timer { return false }
            if adopted.count >= 64 { adopted = adopted.filter { $0.value.value?.isValid == true } }
            adopted[key] = WeakTimer(value: timer)
            return true
        }
    }

    private struct WeakTimer {
        weak var value: Timer?
    }
}

extension SimulationHost {
    /// The callback being delivered, as diagnostics name it.
    var callback: String { wallClock.callback }

    /// Notes what app code was caught doing, as a diagnostic at the end of the callback.
    func noteFinding(_ message: String) { wallClock.note(message) }

    /// Takes a run-loop timer for the phone; `false` when it already was.
    func adopt(_ timer: Timer) -> Bool { wallClock.adopt(timer) }
}
