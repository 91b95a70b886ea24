import SimulationCore

extension PhoneNoise {
    /// The cached position iOS hands over first when updates start: before the trace's first
    /// fix, and before the first fix after every gap longer than `gapSeconds`.
    ///
    /// Apple: when updates start, "the location service returns an initial location as quickly
    /// as possible, returning cached information when available", and apps should check the
    /// timestamp (`startUpdatingLocation()`; the archived Location Awareness guide's sample drops
    /// events older than 15 s, fact sheet a5 #4). In the field the first reading is "often a
    /// cached reading from when the GPS was last lit" (malcommac/SwiftLocation#153) and can be far
    /// off (traccar/traccar-client-ios#54; transistorsoft/flutter_background_geolocation#1711).
    ///
    /// How it is modelled: a `Fix` has one time, which the replay uses both as the fix's
    /// timestamp and as the moment it is delivered, so no fix in a trace can be older than its
    /// delivery and the gate's age rule cannot see a cached fix. (Inserting the cached fix with
    /// its own old timestamp would duplicate the fix it was cached from.) Instead the cached
    /// position is delivered one second before the fresh fix (halfway through a shorter gap),
    /// timestamped then: after a gap it is the last position before the gap, with that fix's
    /// accuracy; at the start, where the trace knows nothing earlier, it is the first fix moved
    /// `startDistanceMeters` in a random direction. The gate's first-fix check
    /// (`staleFirstFix`) and implied-speed check are what can catch it.
    ///
    /// `gapSeconds` defaults to 60: a gap must outlast the 15 s freshness limit above for the
    /// cached fix to count as stale, and a minute without fixes means the receiver was off, not
    /// a missed epoch. 1 km at the start is a modelling choice: a position from earlier in the
    /// same town.
    public struct StaleFirstFix: Sendable, Equatable {
        /// A gap longer than this, seconds, gets a cached fix before its first fix (1...86400).
        public var gapSeconds = 60.0
        /// How far the cached fix before the trace's first fix is, metres (0...100000).
        public var startDistanceMeters = 1000.0

        /// Stale first fixes at the defaults above.
        public init() {}

        func apply(
            to fixes: inout [Fix], fixSegments: inout [UInt32], segments: inout [TraceSegment],
            random: inout SplitMix64
        ) {
            guard let first = fixes.first else { return }
            var output: [Fix] = []
            output.reserveCapacity(fixes.count + 16)
            var outputSegments: [UInt32] = []
            let hasSegments = !fixSegments.isEmpty
            if hasSegments { outputSegments.reserveCapacity(fixSegments.count + 16) }
            func insert(_ cached: Fix, before index: Int) {
                output.append(cached)
                guard hasSegments else {
                    // A trace of one segment lists it without a per-fix index.
                    if segments.count == 1 { segments[0].fixCount += 1 }
                    return
                }
                let segment = fixSegments[index]
                outputSegments.append(segment)
                segments[Int(segment)].fixCount += 1
            }
            var cachedStart = first
            cachedStart.timestamp = first.timestamp.advanced(bySeconds: -1)
            LocalOffset.move(
                &cachedStart, meters: startDistanceMeters, bearingRadians: random.uniform(0...(2 * Double.pi)))
            insert(cachedStart, before: 0)
            for index in fixes.indices {
                if index > 0 {
                    let gap = fixes[index].timestamp.seconds(since: fixes[index - 1].timestamp)
                    if gap > gapSeconds {
                        var cached = fixes[index - 1]
                        cached.timestamp = fixes[index].timestamp.advanced(bySeconds: -min(1, gap / 2))
                        insert(cached, before: index)
                    }
                }
                output.append(fixes[index])
                if hasSegments { outputSegments.append(fixSegments[index]) }
            }
            fixes = output
            fixSegments = outputSegments
        }
    }
}
