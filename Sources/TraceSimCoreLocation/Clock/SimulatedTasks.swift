import Dispatch
import Foundation
import SimulationCore

/// Swift concurrency tasks the app started during a run, kept in lock-step with the replay.
///
/// The replay runs app code on its own thread; a `Task { … }` the app starts there runs on
/// Swift's global executor, on another thread. To keep a run deterministic the replay waits,
/// after every callback, until each task the app started is either finished or *parked*:
/// waiting on the simulation in `AppClock.sleep` or in a live-updates sequence's `next()`.
/// Whatever a task does between two parks (its requests to the phone, its timers) therefore
/// happens inside the callback that woke it, at that callback's virtual instant.
///
/// How tasks are counted: every callback binds `census` as a task-local value. Swift copies
/// task-local values into a task created by `Task { … }` (not `Task.detached`) and releases
/// the copy when the task ends, so the census object's strong reference count, less the
/// references this object holds itself, is the number of the app's tasks still alive.
/// Structured child tasks (`async let`, task groups) share their parent's copy: they count
/// with the parent.
///
/// The wait is bounded by a wall-clock timeout (`timeoutSeconds`): a task that waits on
/// something the simulation does not drive (a network call, another actor, `Task.sleep`)
/// is noted as a diagnostic, and the replay stops waiting for the rest of the run, which is
/// then no longer guaranteed to be deterministic.
package final class SimulatedTasks: @unchecked Sendable {
    /// The census object of the app's current process, bound while app code runs.
    @TaskLocal package static var census: Census?

    /// Counted by reference, never read.
    package final class Census: Sendable {}

    /// How long the replay waits for the app's tasks after one callback, in seconds of wall
    /// time, before it notes a diagnostic and stops waiting: `TRACESIM_TASK_TIMEOUT` (seconds)
    /// when set, else 30 s. Generous on purpose: the tasks run on Swift's shared thread pool,
    /// which other work in the process (parallel tests, other runs) can keep busy for seconds.
    package var timeoutSeconds = SimulatedTasks.defaultTimeoutSeconds

    /// The timeout a new host starts with.
    static let defaultTimeoutSeconds: Double = {
        guard let text = ProcessInfo.processInfo.environment["TRACESIM_TASK_TIMEOUT"], let seconds = Double(text),
            seconds.isFinite, seconds > 0
        else { return 30 }
        return seconds
    }()

    private let condition = NSCondition()
    private var census = Census()
    /// The census's strong references when no task holds it, measured before it is first
    /// bound (never inside an initializer, where the optimizer may still hold a temporary).
    private var baseline: Int?
    private var parked: [Int: Ticket] = [:]
    private var nextTicket = 0
    private var isWaiting = true

    init() {}

    /// A census object's strong references, read the same way every time so the references
    /// held by this call itself cancel out against `baseline`.
    @inline(never)
    private func strongReferences() -> Int { Int(_getRetainCount(census)) }

    /// How many of the app's tasks are alive: started in a callback of this process and not
    /// finished.
    private var aliveCount: Int {
        guard let baseline else { return 0 }
        return max(0, strongReferences() - baseline)
    }

    /// Runs app code with the census bound.
    func run(_ body: () -> Void) {
        if condition.withLock({ baseline == nil }) {
            let references = strongReferences()
            condition.withLock { baseline = references }
        }
        Self.$census.withValue(census, operation: body)
    }

    /// Waits (bounded) until every live task of the process is parked or finished. Returns
    /// `true` once, from the call that gave up waiting.
    func settle() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        // Most callbacks start no task: answered without reading the clock, which is what the
        // per-fix cost of a facade app would otherwise be spent on.
        guard isWaiting, aliveCount > parked.count else { return false }
        let deadline = Date(timeIntervalSinceNow: timeoutSeconds)
        var pause = 0.000_05
        while aliveCount > parked.count {
            if Date() >= deadline {
                isWaiting = false
                return true
            }
            // A task that parks signals; one that finishes does not, so poll as well.
            _ = condition.wait(until: Date(timeIntervalSinceNow: pause))
            pause = min(pause * 2, 0.002)
        }
        return false
    }

    /// The process ended: its parked tasks are woken with `ended` (as if cancelled) and no
    /// longer counted; a new census is made for the next process.
    func endProcess() {
        let tickets: [Ticket] = condition.withLock {
            let all = parked.keys.sorted().compactMap { parked[$0] }
            census = Census()
            baseline = nil
            return all
        }
        for ticket in tickets { wake(ticket, .ended) }
    }

    // MARK: - Parking

    /// A task waiting on the simulation: woken by the replay, by cancellation, or when its
    /// process ends. Its state is guarded by the owner's lock.
    package final class Ticket: @unchecked Sendable {
        fileprivate let identifier: Int
        fileprivate var waiter: ((Outcome) -> Void)?
        fileprivate var outcome: Outcome?

        /// Why a parked task woke.
        package enum Outcome: Sendable {
            /// The simulation woke it (a timer came due, an element arrived).
            case resumed
            /// Its task was cancelled.
            case cancelled
            /// Its process ended.
            case ended
        }

        fileprivate init(identifier: Int) { self.identifier = identifier }
    }

    /// A ticket for a task about to wait. Make every request the wait depends on (a timer)
    /// before `park`, so the replay collects it with the callback.
    package func makeTicket() -> Ticket {
        condition.withLock {
            nextTicket += 1
            return Ticket(identifier: nextTicket)
        }
    }

    /// Counts the ticket's task as parked until the ticket is woken (unless it already was).
    package func park(_ ticket: Ticket) {
        condition.withLock {
            guard ticket.outcome == nil else { return }
            parked[ticket.identifier] = ticket
            condition.broadcast()
        }
    }

    /// Suspends the calling task until `ticket` is woken; returns why.
    package func wait(_ ticket: Ticket) async -> Ticket.Outcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Ticket.Outcome, Never>) in
                let outcome: Ticket.Outcome? = condition.withLock {
                    if let outcome = ticket.outcome { return outcome }
                    ticket.waiter = { continuation.resume(returning: $0) }
                    return nil
                }
                if let outcome { continuation.resume(returning: outcome) }
            }
        } onCancel: {
            wake(ticket, .cancelled)
        }
    }

    /// Wakes a ticket (the first outcome wins): the replay then waits for its task to park
    /// again or finish.
    package func wake(_ ticket: Ticket, _ outcome: Ticket.Outcome) {
        let waiter: ((Ticket.Outcome) -> Void)? = condition.withLock {
            guard ticket.outcome == nil else { return nil }
            ticket.outcome = outcome
            parked.removeValue(forKey: ticket.identifier)
            defer { ticket.waiter = nil }
            return ticket.waiter
        }
        waiter?(outcome)
    }
}

extension SimulationHost {
    /// Runs app code the way every callback does: this host bound as `current`, the app's
    /// tasks counted, and the callback not over until those tasks are parked or finished.
    /// The replay's thread reads the virtual clock meanwhile (see `WallClock`), and what app
    /// code was caught doing with the wall clock, timers and the main queue is noted.
    func runAppCode(_ callback: String, _ body: () -> Void) {
        let reads = wallClock.run(callback, at: now) { Self.$current.withValue(self) { tasks.run(body) } }
        if tasks.settle() {
            diagnostics.note(
                "a task the app started neither finished nor waited on the simulation within "
                    + "\(tasks.timeoutSeconds) s of wall time; the replay stopped waiting for its tasks, "
                    + "so this run may not repeat exactly", at: now)
        }
        for _ in 0..<reads {
            diagnostics.note(
                "wall clock: Date() or Date.now read during \(callback): given the callback's virtual instant "
                    + "on the replay's thread (the same read in a Swift task or on another thread gets the real "
                    + "time); use AppClock.now", at: now)
        }
        for finding in wallClock.take() { diagnostics.note(finding, at: now) }
    }
}

extension SimulationHost {
    /// Suspends the calling task until `instant` in virtual time: a host timer wakes it, so it
    /// resumes inside the callback that fires the timer (only while the process runs, once at
    /// a resume). Throws `CancellationError` when the task is cancelled or its process ends.
    package func sleep(until instant: SimInstant) async throws {
        try Task.checkCancellation()
        let ticket = tasks.makeTicket()
        let timer = schedule(at: instant) { [tasks] in tasks.wake(ticket, .resumed) }
        tasks.park(ticket)
        switch await tasks.wait(ticket) {
        case .resumed:
            return
        case .cancelled, .ended:
            cancelTimer(timer)
            throw CancellationError()
        }
    }
}
