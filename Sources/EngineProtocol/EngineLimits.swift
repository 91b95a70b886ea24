/// How much an engine may ask of one run, whatever it writes: each limit is a protocol error
/// when crossed, naming the run (Documentation/TraceSim.docc/EngineProtocol.md, "Limits").
///
/// Without them an engine that answers every event, its own timer firings included, with a
/// timer due at `now` (or a nanosecond later) would loop forever, and one that re-arms a timer
/// on every event would grow TraceSim's memory without end.
package enum EngineLimits {
    /// Events TraceSim sends at one virtual instant. A real instant holds a fix, the timers due
    /// then, and the callbacks of the requests the engine made: a few, or a few hundred when a
    /// suspended app's overdue timers all fire as it resumes (the built-in engine behind
    /// `serve-engine` sends at most 3, over every bundled trace and preset). More than this means
    /// an answer raises the next event at once, every time, and virtual time never moves on.
    package static let maximumEventsAtOneInstant = 10_000

    /// Events per fix or motion sample delivered to the engine (`maximumEvents`).
    package static let eventsPerDelivery = 16
    /// Deliveries counted on top of the real ones (`maximumEvents`), so a run whose app gets
    /// few fixes still has room for its start, timers and callbacks.
    package static let deliveryAllowance = 1_000
    /// Events per second of virtual time the run has covered (`maximumEvents`): a timer that
    /// fires every second, or slower, may go on through any silence of the trace.
    package static let eventsPerSecond = 1

    /// Events TraceSim sends in one run, after `deliveries` fixes and motion samples reached the
    /// engine and `seconds` of virtual time passed since its first event:
    /// 16 × (deliveries + 1,000) + 1 × seconds.
    ///
    /// Fixes and motion samples come from the trace, and so does the time it spans; everything
    /// else (timers, and the callbacks of requests) is the engine's doing. A periodic timer
    /// (the built-in engine's heartbeat fires every minute through a month-long trace) stays
    /// within it; a timer that keeps re-arming itself a little after `now` passes the
    /// per-instant limit and meets this one, because it moves virtual time on by less than a
    /// second per event. The built-in engine behind `serve-engine` stays under 4.5 % of it at
    /// every event, over every bundled trace and preset.
    package static func maximumEvents(deliveries: Int, seconds: Int64) -> Int {
        eventsPerDelivery * (deliveries + deliveryAllowance) + eventsPerSecond * Int(clamping: seconds)
    }

    /// Answer lines per fix or motion sample delivered (`maximumAnswers`).
    package static let answersPerDelivery = 64
    /// Answer lines per second of virtual time the run has covered (`maximumAnswers`).
    package static let answersPerSecond = 4

    /// Answer lines (everything but `done` and `log`) an engine may write in one run, after
    /// `deliveries` fixes and motion samples reached it and `seconds` of virtual time passed:
    /// 64 × (deliveries + 1,000) + 4 × seconds. Requests, timers and records are kept until the
    /// run ends, so this bounds the memory one run can take; log lines are not kept but counted
    /// (`ClientDiagnostics`), so they are free. The built-in engine behind `serve-engine` stays
    /// under 3.8 % of it.
    package static func maximumAnswers(deliveries: Int, seconds: Int64) -> Int {
        answersPerDelivery * (deliveries + deliveryAllowance) + answersPerSecond * Int(clamping: seconds)
    }

    /// The largest `expectedFixCount` a `reset` may carry: a record numbers its accepted fixes
    /// with 32 bits. A count above it, or below 0, is refused.
    package static let maximumExpectedFixCount: Int64 = 4_294_967_295

    /// Fixes the serving side reserves memory for at most, whatever `expectedFixCount` says:
    /// the count is the peer's, and a record grows past it anyway (about 28 MB reserved).
    package static let maximumReservedFixes = 1 << 20

    /// The longest line `serve-engine` reads (1 GiB). A `reset` carries every geofence, so
    /// TraceSim's lines are not small, but one that never ends must not take all memory.
    package static let maximumServedLineBytes = 1 << 30
}
