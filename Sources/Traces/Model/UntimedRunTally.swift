/// Runs of records that repeat one timestamp while their positions cover ground.
///
/// Some writers stamp every point with a placeholder instead of leaving the time out: the
/// INT32_MIN epoch (1901-12-13T20:45:52Z), 1970-01-01T00:00:00Z. Such records are not
/// duplicates of one epoch, so they are not merged into one fix: they are untimed. The rule
/// (ten or more consecutive records of one provider, one timestamp, more than 100 m apart)
/// is documented on `ImportOptions.assumedRate`, which can give them times.
public struct UntimedRunTally: Sendable, Equatable {
    /// How many runs were found, with the first line of each of the first few.
    public internal(set) var runs = LineTally()
    /// How many records those runs hold.
    public internal(set) var records = 0
    /// How many of `records` `ImportOptions.assumedRate` gave times to. They then went
    /// through the usual sorting and merging; the rest are not fixes.
    public internal(set) var timed = 0

    /// Creates an empty tally.
    public init() {}
}
