/// How many fixes a replay steps ahead for the next run of locations it hands a client that
/// takes runs (issue 32).
///
/// The device steps ahead of the client, and a client that stops early (it wrote a request)
/// costs the steps after its stop twice: the phone goes back and steps again. A fixed long
/// look-ahead would make that waste grow with the run for a client that asks for something
/// every few fixes (the built-in engine re-centres its stationary region about every 100 m,
/// about every seven fixes when driving), and a short one would cut a quiet client's runs
/// (and a subprocess engine's messages) short. So the length follows the client: it doubles
/// while the client takes whole runs without asking for anything, and falls to where the
/// client stopped when it stops early, so a client with a steady rhythm gets runs that end on
/// its request, with nothing to step again.
@usableFromInline package struct LocationRunLength: Sendable, Equatable {
    /// The longest run: enough that a run's fixed cost (a call, a copy of the phone) is spread
    /// thin, small enough that the deliveries of one run stay in cache.
    package static let maximum = 1024
    /// The first run's length.
    package static let initial = 8

    /// A length at its first value.
    @usableFromInline package init() {}

    /// The length of the next run.
    @usableFromInline package private(set) var current = Self.initial

    /// Learns from a run handed over.
    /// - Parameters:
    ///   - handled: how many deliveries the client handled.
    ///   - count: how many the run held.
    ///   - wroteRequests: whether the client asked for something (on its last handled one).
    ///   - endedAtLimit: whether something other than the length ended the run (the next
    ///     queued item, motion sample or device event, or the trace's end).
    @usableFromInline package mutating func note(handled: Int, of count: Int, wroteRequests: Bool, endedAtLimit: Bool) {
        if handled < count {
            current = max(1, handled)
        } else if !wroteRequests && !endedAtLimit {
            current = min(current * 2, Self.maximum)
        }
    }
}
