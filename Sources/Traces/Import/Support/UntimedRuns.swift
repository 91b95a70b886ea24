import SimulationCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Tells a placeholder timestamp from a repeated epoch, before `TraceBuilder` merges
/// same-epoch records: a run of records that share one time yet cover ground was not
/// measured at that time. The rule and the timing of `--assume-rate` are documented on
/// `ImportOptions.assumedRate`.
enum UntimedRuns {
    /// What the import asked for about untimed runs.
    struct Timing: Sendable {
        /// Records per second to time runs at; `nil` leaves them out.
        var rate: Double?
        /// The day whose midnight (UTC) starts a file with no timed record.
        var startDate: CalendarDate?
        /// The file being imported, for errors the builder raises.
        var file = ""
    }

    /// The current import's timing. Importers build their traces without seeing
    /// `ImportOptions`, so `importing(file:options:_:)` sets this around one import rather
    /// than every importer passing the options down to its builder.
    @TaskLocal static var timing = Timing()

    /// The fewest records of one timestamp that can be a run: fewer are taken as a receiver
    /// repeating an epoch.
    static let minimumRecords = 10
    /// A run's positions must span more than this, in millimetres (100 m). Comparing whole
    /// millimetres keeps a run laid out exactly 100 m long from turning on rounding noise.
    static let spanLimitMillimetres = 100_000.0

    /// Runs one import with `options`' timing in effect.
    ///
    /// - Throws: what `body` throws, or a `TraceFormatError` naming `file` when a rate was
    ///   given but the file has no timed record and no start date to time its runs from.
    static func importing(
        file: String, options: ImportOptions, _ body: () throws(TraceFormatError) -> Trace
    ) throws(TraceFormatError) -> Trace {
        var timing = Timing(startDate: options.nmeaStartDate, file: file)
        if let rate = options.assumedRate, rate > 0, rate.isFinite { timing.rate = rate }
        let result = $timing.withValue(timing) { Result { () throws(TraceFormatError) in try body() } }
        let trace = try result.get()
        let tally = trace.diagnostics.untimedRuns
        if timing.rate != nil, timing.startDate == nil, tally.records > 0, tally.timed == 0, trace.fixes.isEmpty {
            throw TraceFormatError(
                file: file, line: tally.runs.firstLines.first,
                problem: .unexpectedContent("untimed run has no start time: pass --date YYYY-MM-DD"))
        }
        return trace
    }

    /// Finds the untimed runs among records in file order, counts them in `diagnostics`, then
    /// times them at `timing.rate` or removes them. `lines` runs parallel to `fixes`, and so
    /// does `segments` when the file declares several (empty otherwise): removed records leave
    /// all three alike.
    ///
    /// - Returns: whether `fixes` is now in (timestamp, provider) order, or `nil` when there
    ///   is no untimed run and nothing was changed.
    /// - Complexity: O(n) for n records, one pass when there is no run.
    static func resolve(
        _ fixes: inout [Fix], lines: inout [Int32], segments: inout [UInt32], diagnostics: inout ImportDiagnostics,
        trackOfSegment: [Int]? = nil
    ) throws(TraceFormatError) -> Bool? {
        let runs = find(in: fixes)
        guard !runs.isEmpty else { return nil }
        // The run each record belongs to, or -1: set back to -1 once a record is timed.
        var runOf = [Int](repeating: -1, count: fixes.count)
        for (number, run) in runs.enumerated() {
            for index in run { runOf[index] = number }
            diagnostics.untimedRuns.runs.record(line: Int(lines[run[0]]))
            diagnostics.untimedRuns.records += run.count
        }
        let timing = Self.timing
        if let rate = timing.rate {
            let measured = runOf.map { $0 < 0 }
            diagnostics.untimedRuns.timed = retime(
                &fixes, runOf: &runOf, runCount: runs.count, rate: rate, startDate: timing.startDate)
            try checkCollisions(fixes, lines: lines, measured: measured, runOf: runOf, rate: rate, file: timing.file)
        }
        var kept = 0
        for index in fixes.indices where runOf[index] < 0 {
            fixes[kept] = fixes[index]
            lines[kept] = lines[index]
            if !segments.isEmpty { segments[kept] = segments[index] }
            kept += 1
        }
        fixes.removeLast(fixes.count - kept)
        lines.removeLast(lines.count - kept)
        if !segments.isEmpty { segments.removeLast(segments.count - kept) }
        let recordTracks = trackOfSegment.map { tracks in segments.map { tracks[Int($0)] } }
        diagnostics.outOfOrder = outOfOrder(fixes, lines: lines, tracks: recordTracks)
        return fixes.indices.dropFirst().allSatisfy { !precedes(fixes[$0], fixes[$0 - 1]) }
    }

    /// Refuses a run record timed onto the epoch (time and provider) of a measured record:
    /// merged, the made-up record would take the measured fix's place. Any epoch anywhere in
    /// the file counts, so out-of-order files and other providers are judged exactly.
    private static func checkCollisions(
        _ fixes: [Fix], lines: [Int32], measured: [Bool], runOf: [Int], rate: Double, file: String
    ) throws(TraceFormatError) {
        struct Epoch: Hashable {
            var time: Int64
            var provider: UInt8
        }
        var measuredLine: [Epoch: Int32] = [:]
        for index in fixes.indices where measured[index] {
            let epoch = Epoch(
                time: fixes[index].timestamp.nanosecondsSinceEpoch, provider: fixes[index].provider.rawValue)
            if measuredLine[epoch] == nil { measuredLine[epoch] = lines[index] }
        }
        for index in fixes.indices where !measured[index] && runOf[index] < 0 {
            let epoch = Epoch(
                time: fixes[index].timestamp.nanosecondsSinceEpoch, provider: fixes[index].provider.rawValue)
            guard let line = measuredLine[epoch] else { continue }
            let hertz = rate.rounded() == rate ? String(Int(rate)) : String(rate)
            throw TraceFormatError(
                file: file, line: Int(lines[index]),
                problem: .unexpectedContent("untimed run at \(hertz) Hz lands on line \(line)'s time"))
        }
    }

    /// The untimed runs, each as the indices of its records, ordered by first record.
    static func find(in fixes: [Fix]) -> [[Int]] {
        guard fixes.count >= minimumRecords else { return [] }
        // The open run of each provider, indexed by `Provider.rawValue`.
        var open = [OpenRun](repeating: OpenRun(), count: Provider.allCases.count)
        var runs: [[Int]] = []
        for index in fixes.indices {
            let slot = Int(fixes[index].provider.rawValue)
            let nanoseconds = fixes[index].timestamp.nanosecondsSinceEpoch
            if open[slot].length > 0, open[slot].time == nanoseconds {
                open[slot].length += 1
                open[slot].last = index
                continue
            }
            if open[slot].length >= minimumRecords, !open[slot].isCoarseClock(next: nanoseconds),
                let run = run(in: fixes, open[slot])
            {
                runs.append(run)
            }
            let previous: Int64? = open[slot].length > 0 ? open[slot].time : nil
            open[slot] = OpenRun(first: index, last: index, time: nanoseconds, length: 1, previousTime: previous)
        }
        for candidate in open where candidate.length >= minimumRecords && !candidate.isCoarseClock(next: nil) {
            if let run = run(in: fixes, candidate) { runs.append(run) }
        }
        return runs.sorted { $0[0] < $1[0] }
    }

    /// One provider's latest stretch of records sharing a timestamp.
    private struct OpenRun {
        var first = 0
        var last = 0
        var time: Int64 = 0
        var length = 0
        /// The provider's time just before the stretch, if any.
        var previousTime: Int64?

        /// Whether the stretch is one tick of a whole-second clock rather than a placeholder:
        /// the provider's time just before or just after it is exactly one second away (a
        /// 10 Hz logger writing whole seconds, moving fast). Those records are repeats of an
        /// epoch, merged and counted as before; a placeholder does not tick.
        func isCoarseClock(next: Int64?) -> Bool {
            let second: Int64 = 1_000_000_000
            return previousTime.map { time &- $0 == second } == true || next.map { $0 &- time == second } == true
        }
    }

    /// The indices of the candidate's records (its provider's, from its first through its
    /// last), when some lies more than the limit from the first of them.
    private static func run(in fixes: [Fix], _ candidate: OpenRun) -> [Int]? {
        let origin = fixes[candidate.first]
        let members = (candidate.first...candidate.last).filter { fixes[$0].provider == origin.provider }
        let spansGround = members.contains {
            (distanceMeters(origin, fixes[$0]) * 1000).rounded() > spanLimitMillimetres
        }
        return spansGround ? members : nil
    }

    /// The great-circle (haversine) distance between two fixes in metres, on a sphere of the
    /// mean Earth radius: the formula and radius of `Geodesy.distanceMeters`, which Traces
    /// cannot import. Within 0.5 % of the ellipsoid, far finer than the 100 m it decides.
    static func distanceMeters(_ from: Fix, _ to: Fix) -> Double {
        let earthRadiusMeters = 6_371_008.8
        let radians = Double.pi / 180
        let sinLatitude = sin((to.latitude - from.latitude) * radians / 2)
        let sinLongitude = sin((to.longitude - from.longitude) * radians / 2)
        let a =
            sinLatitude * sinLatitude
            + cos(from.latitude * radians) * cos(to.latitude * radians) * sinLongitude * sinLongitude
        return 2 * earthRadiusMeters * asin(min(1, a.squareRoot()))
    }

    /// Gives run records times at `rate`, walking the file in order (see
    /// `ImportOptions.assumedRate`), and marks each timed record as no longer in a run.
    /// A record whose time would leave the clock's range stays untimed.
    ///
    /// - Returns: how many records were timed.
    private static func retime(
        _ fixes: inout [Fix], runOf: inout [Int], runCount: Int, rate: Double, startDate: CalendarDate?
    ) -> Int {
        let firstTimed = fixes.indices.first { runOf[$0] < 0 }
        var latest: Int64?
        var anchors = [Int64?](repeating: nil, count: runCount)
        var ranks = [Int](repeating: 0, count: runCount)
        var timed = 0
        for index in fixes.indices {
            let run = runOf[index]
            guard run >= 0 else {
                latest = max(latest ?? .min, fixes[index].timestamp.nanosecondsSinceEpoch)
                continue
            }
            if ranks[run] == 0 {
                anchors[run] = anchor(
                    after: latest, before: firstTimed.map { (start: index, firstTimed: $0) }, in: fixes, runOf: runOf,
                    rate: rate,
                    startDate: startDate)
            }
            let rank = ranks[run]
            ranks[run] += 1
            guard let anchor = anchors[run], let offset = offset(records: rank, rate: rate) else { continue }
            let (time, overflow) = anchor.addingReportingOverflow(offset)
            guard !overflow else { continue }
            fixes[index].timestamp = SimInstant(nanosecondsSinceEpoch: time)
            runOf[index] = -1
            latest = max(latest ?? .min, time)
            timed += 1
        }
        return timed
    }

    /// Where a run starting at `before.start` begins: one period after `latest`, the time
    /// read last; else, ahead of the first timed record, early enough that the run records
    /// before it end one period before it; else midnight of `startDate`.
    private static func anchor(
        after latest: Int64?, before: (start: Int, firstTimed: Int)?, in fixes: [Fix], runOf: [Int], rate: Double,
        startDate: CalendarDate?
    ) -> Int64? {
        if let latest {
            guard let period = offset(records: 1, rate: rate) else { return nil }
            let (time, overflow) = latest.addingReportingOverflow(period)
            return overflow ? nil : time
        }
        if let before {
            let leading = (before.start..<before.firstTimed).count { runOf[$0] >= 0 }
            guard let lead = offset(records: leading, rate: rate) else { return nil }
            let next = fixes[before.firstTimed].timestamp.nanosecondsSinceEpoch
            let (time, overflow) = next.subtractingReportingOverflow(lead)
            return overflow ? nil : time
        }
        guard let startDate else { return nil }
        let (time, overflow) = Int64(startDate.daysSinceEpoch).multipliedReportingOverflow(by: 86_400_000_000_000)
        return overflow ? nil : time
    }

    /// `records` periods at `rate`, in nanoseconds, or `nil` past the clock's range.
    private static func offset(records: Int, rate: Double) -> Int64? {
        let nanoseconds = (Double(records) / rate * 1e9).rounded()
        return nanoseconds < 9.2e18 ? Int64(nanoseconds) : nil
    }

    /// The out-of-order tally `TraceBuilder.add` keeps, counted again over the records left.
    private static func outOfOrder(_ fixes: [Fix], lines: [Int32], tracks: [Int]? = nil) -> LineTally {
        var tally = LineTally()
        var latest = [Int64](repeating: .min, count: Provider.allCases.count)
        var track: Int?
        for index in fixes.indices {
            // Tracks kept apart (`--tracks file`, `each`) are each sorted on their own.
            if let tracks {
                let current = tracks[index]
                if current != track { latest = [Int64](repeating: .min, count: Provider.allCases.count) }
                track = current
            }
            let slot = Int(fixes[index].provider.rawValue)
            let time = fixes[index].timestamp.nanosecondsSinceEpoch
            if time < latest[slot] {
                tally.record(line: Int(lines[index]))
            } else {
                latest[slot] = time
            }
        }
        return tally
    }

    private static func precedes(_ lhs: Fix, _ rhs: Fix) -> Bool {
        lhs.timestamp < rhs.timestamp || (lhs.timestamp == rhs.timestamp && lhs.provider < rhs.provider)
    }
}
