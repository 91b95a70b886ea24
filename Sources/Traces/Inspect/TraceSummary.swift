import SimulationCore

/// What `tracesim inspect` reports about one imported trace.
public struct TraceSummary: Sendable, Equatable {
    /// The detected format.
    public var format: TraceFormat
    /// The recording device, when the file names it.
    public var device: String?
    /// The number of fixes.
    public var fixCount: Int
    /// Fixes per provider, only providers present, in `Provider` order.
    public var fixesByProvider: [(provider: Provider, count: Int)]
    /// The first fix's time.
    public var first: SimInstant?
    /// The last fix's time.
    public var last: SimInstant?
    /// Seconds from the first to the last fix.
    public var durationSeconds: Double
    /// The median gap between consecutive fixes of the same provider, in seconds.
    public var medianIntervalSeconds: Double?
    /// Fixes per accuracy kind.
    public var fixesByAccuracyKind: [AccuracyKind: Int]
    /// Whether any fix has an altitude.
    public var hasAltitude: Bool
    /// Whether any fix has a speed.
    public var hasSpeed: Bool
    /// Whether any fix has a course.
    public var hasCourse: Bool
    /// Whether any fix has a vertical accuracy.
    public var hasVerticalAccuracy: Bool
    /// Whether any fix has a speed accuracy.
    public var hasSpeedAccuracy: Bool
    /// Whether any fix has a course accuracy.
    public var hasCourseAccuracy: Bool
    /// The number of motion samples.
    public var motionSampleCount: Int
    /// What the importer skipped, merged and sorted.
    public var diagnostics: ImportDiagnostics
    /// The file's tracks and segments (`Trace.segments`).
    public var segments: [TraceSegment]
    /// Tracks whose time spans overlap (`Trace.trackOverlaps()`).
    public var trackOverlaps: [TrackOverlap]

    /// The accuracy kind most fixes carry; ties go to the more informative kind.
    public var accuracyKind: AccuracyKind {
        // `max` keeps the first of equal elements, so list the more informative kinds first.
        let ordered: [AccuracyKind] = [.meters, .dilution, .none]
        guard fixCount > 0 else { return .none }
        return ordered.max { (fixesByAccuracyKind[$0] ?? 0) < (fixesByAccuracyKind[$1] ?? 0) } ?? .none
    }

    /// Summarises a trace.
    /// - Complexity: O(n log n) in the number of fixes, for the median.
    public init(_ trace: Trace) {
        let fixes = trace.fixes
        format = trace.provenance.format
        device = trace.provenance.device
        fixCount = fixes.count
        var counts = [Int](repeating: 0, count: Provider.allCases.count)
        var lastByProvider = [SimInstant?](repeating: nil, count: Provider.allCases.count)
        // Nanoseconds as Double: exact for any gap under 104 days, so the median of an
        // ordinary trace is the same as from integers, and two fixes centuries apart (more
        // than an Int64 of nanoseconds holds) are still measured instead of saturating.
        var intervals: [Double] = []
        intervals.reserveCapacity(fixes.count)
        var byKind = [Int](repeating: 0, count: 3)
        var flags = (
            altitude: false, speed: false, course: false, vertical: false, speedAccuracy: false, courseAccuracy: false
        )
        for fix in fixes {
            let slot = Int(fix.provider.rawValue)
            counts[slot] += 1
            if let previous = lastByProvider[slot] {
                let (interval, overflow) = fix.timestamp.nanosecondsSinceEpoch.subtractingReportingOverflow(
                    previous.nanosecondsSinceEpoch)
                intervals.append(
                    overflow
                        ? Double(fix.timestamp.nanosecondsSinceEpoch) - Double(previous.nanosecondsSinceEpoch)
                        : Double(interval))
            }
            lastByProvider[slot] = fix.timestamp
            byKind[Int(fix.horizontalAccuracyKind.rawValue)] += 1
            flags.altitude = flags.altitude || fix.altitudeMeters != nil
            flags.speed = flags.speed || fix.speedMetersPerSecond != nil
            flags.course = flags.course || fix.courseDegrees != nil
            flags.vertical = flags.vertical || fix.verticalAccuracy != nil
            flags.speedAccuracy = flags.speedAccuracy || fix.speedAccuracyMetersPerSecond != nil
            flags.courseAccuracy = flags.courseAccuracy || fix.courseAccuracyDegrees != nil
        }
        fixesByProvider = Provider.allCases.compactMap { provider in
            let count = counts[Int(provider.rawValue)]
            return count > 0 ? (provider, count) : nil
        }
        first = fixes.first?.timestamp
        last = fixes.last?.timestamp
        if let first, let last {
            durationSeconds = last.seconds(since: first)
        } else {
            durationSeconds = 0
        }
        intervals.sort()
        if intervals.isEmpty {
            medianIntervalSeconds = nil
        } else if intervals.count % 2 == 1 {
            medianIntervalSeconds = intervals[intervals.count / 2] / 1e9
        } else {
            let upper = intervals[intervals.count / 2]
            let lower = intervals[intervals.count / 2 - 1]
            medianIntervalSeconds = (lower + upper) / 2e9
        }
        fixesByAccuracyKind = [.none: byKind[0], .dilution: byKind[1], .meters: byKind[2]].filter { $0.value > 0 }
        hasAltitude = flags.altitude
        hasSpeed = flags.speed
        hasCourse = flags.course
        hasVerticalAccuracy = flags.vertical
        hasSpeedAccuracy = flags.speedAccuracy
        hasCourseAccuracy = flags.courseAccuracy
        motionSampleCount = trace.motionSamples.count
        diagnostics = trace.diagnostics
        segments = trace.segments
        trackOverlaps = trace.trackOverlaps()
    }

    /// Field-by-field equality (tuples are not `Equatable`, so this is spelt out).
    public static func == (lhs: TraceSummary, rhs: TraceSummary) -> Bool {
        lhs.format == rhs.format && lhs.device == rhs.device && lhs.fixCount == rhs.fixCount
            && lhs.fixesByProvider.elementsEqual(rhs.fixesByProvider) { $0 == $1 }
            && lhs.first == rhs.first && lhs.last == rhs.last && lhs.durationSeconds == rhs.durationSeconds
            && lhs.medianIntervalSeconds == rhs.medianIntervalSeconds
            && lhs.fixesByAccuracyKind == rhs.fixesByAccuracyKind && lhs.hasAltitude == rhs.hasAltitude
            && lhs.hasSpeed == rhs.hasSpeed && lhs.hasCourse == rhs.hasCourse
            && lhs.hasVerticalAccuracy == rhs.hasVerticalAccuracy && lhs.hasSpeedAccuracy == rhs.hasSpeedAccuracy
            && lhs.hasCourseAccuracy == rhs.hasCourseAccuracy && lhs.motionSampleCount == rhs.motionSampleCount
            && lhs.diagnostics == rhs.diagnostics && lhs.segments == rhs.segments
            && lhs.trackOverlaps == rhs.trackOverlaps
    }
}
