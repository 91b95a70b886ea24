import Device
import SimulationCore

/// The time-based measures over observed time only: each takes what it measured over the whole
/// trace and leaves out `leftOut`, so a run and its ideal run, measured with the same
/// `UnobservedTime`, are measured over the same seconds.
extension UnobservedTime {
    /// Seconds the receiver ran in `intervals` (`GPSOnTime.intervals`) up to `end`, less what ran inside `leftOut`: GPS that
    /// started before an unobserved span counts until the span's last input plus `graceSeconds`.
    /// - Complexity: O(intervals + left-out windows).
    public func observedGPSSeconds(_ intervals: [GPSOnTime.Interval], closingAt end: SimInstant) -> Double {
        var total = 0.0
        for interval in intervals {
            let stop = min(interval.end ?? end, end)
            guard interval.start < stop else { continue }
            total += stop.seconds(since: interval.start) - leftOutSeconds(from: interval.start, to: stop)
        }
        return max(0, total)
    }

    /// The seconds of `0...span` (seconds since `origin`) that are not left out.
    public func observedSeconds(span: Double, since origin: SimInstant) -> Double {
        max(0, span - leftOutSeconds(from: origin, to: origin.advanced(bySeconds: span)))
    }

    /// The seconds of `0...span` within `reach` of some time in `times` (sorted, seconds since
    /// `origin`), less those left out: `Metrics.coverage(of:span:reach:)` × span over observed
    /// time.
    /// - Complexity: O(times + left-out windows).
    package func coveredSeconds<Times: Sequence<Double>>(
        of times: Times, span: Double, reach: Double, since origin: SimInstant
    ) -> Double {
        guard span > 0 else { return 0 }
        let windows = leftOutSeconds(since: origin)
        var next = 0
        var covered = 0.0
        var coveredUpTo = 0.0
        for time in times {
            let low = max(0, time - reach, coveredUpTo)
            let high = min(span, time + reach)
            if high > low {
                // Windows wholly before this stretch never matter again: stretches only move on.
                while next < windows.count && windows[next].end <= low { next += 1 }
                var inside = 0.0
                var index = next
                while index < windows.count && windows[index].start < high {
                    inside += max(0, min(high, windows[index].end) - max(low, windows[index].start))
                    index += 1
                }
                covered += high - low - inside
            }
            coveredUpTo = max(coveredUpTo, high)
        }
        return covered
    }

    /// The longest interval of `0...span` with no time in `times` (sorted, seconds since
    /// `origin`), its left-out seconds not counted, and where it starts:
    /// `Metrics.longestGap(_:span:)` over observed time.
    package func longestGap(_ times: [Double], span: Double, since origin: SimInstant) -> (
        seconds: Double, start: Double
    ) {
        let windows = leftOutSeconds(since: origin)
        var best = (seconds: 0.0, start: 0.0)
        var previous = 0.0
        var next = 0
        for time in times + [span] {
            while next < windows.count && windows[next].end <= previous { next += 1 }
            var inside = 0.0
            var index = next
            while index < windows.count && windows[index].start < time {
                inside += max(0, min(time, windows[index].end) - max(previous, windows[index].start))
                index += 1
            }
            let seconds = time - previous - inside
            if seconds > best.seconds { best = (seconds, previous) }
            previous = max(previous, time)
        }
        return best
    }
}
