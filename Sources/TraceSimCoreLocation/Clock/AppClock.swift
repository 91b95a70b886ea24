import Dispatch
import Foundation
import SimulationCore

/// The clock seam: the one place app code reads the time or waits, so a replay can run it in
/// virtual time. Adopt it by changing one call at each site:
///
/// | Instead of | Write |
/// |---|---|
/// | `Date()` | `AppClock.now` (or pass `{ AppClock.now }` as a clock closure) |
/// | `DispatchQueue.main.asyncAfter(deadline: .now() + s) { … }` | `AppClock.asyncAfter(seconds: s) { … }` |
/// | `Timer.scheduledTimer(withTimeInterval:repeats:block:)` | `AppClock.scheduledTimer(withTimeInterval:repeats:block:)` |
/// | `try await Task.sleep(for: d)` | `try await AppClock.sleep(for: d)` |
///
/// During a replay (app code called by `CoreLocationApp`, or a `Task` it started) these read
/// and advance the simulated clock: `now` is the virtual instant of the callback being
/// delivered, and timers, delayed work and sleeps come due in virtual time through the
/// simulated phone, which runs them only while the app's process runs (once, at the resume,
/// for what came due while it was suspended) and forgets them when the process ends, as iOS
/// does. Outside a replay they use the real clock. On Apple platforms the shim module
/// (`CoreLocationShim`) provides the same API on the real clock, so code written against the
/// seam compiles in an iOS app unchanged.
public enum AppClock {
    /// The current time: the virtual instant during a replay, `Date()` outside one.
    public static var now: Date {
        guard let host = SimulationHost.current else { return Date() }
        return host.date
    }

    /// Runs `work` after `seconds`: in virtual time during a replay (on the replay's thread,
    /// if the app's process runs then), on the main queue outside one.
    public static func asyncAfter(seconds: TimeInterval, execute work: @escaping @Sendable () -> Void) {
        guard let host = SimulationHost.current else {
            DispatchQueue.main.asyncAfter(deadline: .now() + seconds, execute: work)
            return
        }
        host.schedule(at: host.now.advanced(bySeconds: max(seconds, 0)), work)
    }

    /// A Foundation `Timer` that fires every `interval` seconds (once unless `repeats`).
    ///
    /// During a replay the timer is not added to a run loop: the simulated phone fires it in
    /// virtual time, on the replay's thread, until `invalidate()`. A repeating timer that
    /// came due while the app was suspended fires once at the resume and then keeps its
    /// original schedule, skipping the firings it missed, as a run-loop timer does. Outside a
    /// replay this is `Timer.scheduledTimer(withTimeInterval:repeats:block:)`.
    ///
    /// Unlike Foundation's, `block` need not be `@Sendable`, so the pattern an iOS developer
    /// writes, `{ [weak self] _ in self?.stop() }` in a class that is not `Sendable`, builds in
    /// Swift 6: the block runs on the thread that scheduled the timer (the replay's, or the
    /// run loop's that the timer was added to), never concurrently with it.
    ///
    /// An interval of zero or less is taken as 0.1 ms, as Foundation does.
    ///
    /// - Parameters:
    ///   - interval: Seconds between firings, and before the first.
    ///   - repeats: Whether the timer fires until invalidated, rather than once.
    ///   - block: What a firing runs, given the timer.
    /// - Returns: The timer, to `invalidate()`.
    @discardableResult
    public static func scheduledTimer(
        withTimeInterval interval: TimeInterval, repeats: Bool, block: @escaping (Timer) -> Void
    ) -> Timer {
        let block = SameThreadBlock(block)
        guard let host = SimulationHost.current else {
            return Timer.scheduledTimer(withTimeInterval: interval, repeats: repeats) { block.body($0) }
        }
        let seconds = max(interval, 0.000_1)
        let due = host.now.advanced(bySeconds: seconds)
        // Made with its fire date, so making it reads no clock (a `Date()` read would be noted).
        let timer = Timer(fire: Date(due), interval: seconds, repeats: repeats) { block.body($0) }
        schedule(timer, on: host, at: due, every: repeats ? seconds : nil)
        return timer
    }

    /// Fires `timer` at `due` in virtual time (and every `interval` after, if it repeats)
    /// until it is invalidated.
    static func schedule(_ timer: Timer, on host: SimulationHost, at due: SimInstant, every interval: Double?) {
        timer.fireDate = Date(due)
        host.schedule(at: due) {
            guard timer.isValid else { return }
            timer.fire()
            guard let interval, timer.isValid else { return }
            // The next firing on the original schedule after now (a late firing skips those
            // it missed).
            let missed = (host.now.seconds(since: due) / interval).rounded(.down)
            schedule(timer, on: host, at: due.advanced(bySeconds: interval * (missed + 1)), every: interval)
        }
    }

    /// Suspends the calling task for `duration`: in virtual time during a replay (see the
    /// lock-step notes in the design document), `Task.sleep(for:)` outside one.
    ///
    /// - Throws: `CancellationError` when the task is cancelled, or when the app's process
    ///   ends during a replay (a relaunch, the end of the trace).
    public static func sleep(for duration: Duration) async throws {
        guard let host = SimulationHost.current else {
            try await Task.sleep(for: duration)
            return
        }
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let total = nanoseconds.overflow ? Int64.max : nanoseconds.partialValue &+ attoseconds / 1_000_000_000
        try await host.sleep(until: host.now.advanced(byNanoseconds: max(total, 0)))
    }

    /// Suspends the calling task for `seconds`, like `sleep(for:)`.
    public static func sleep(seconds: TimeInterval) async throws {
        try await sleep(for: .nanoseconds(Int64(min(max(seconds, 0) * 1e9, 9e18))))
    }
}

/// A timer's block, which runs on the thread that scheduled it: Foundation's `Timer` asks for
/// a `@Sendable` block, which a block capturing a non-`Sendable` object is not.
private struct SameThreadBlock: @unchecked Sendable {
    let body: (Timer) -> Void

    init(_ body: @escaping (Timer) -> Void) { self.body = body }
}
