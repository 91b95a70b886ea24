import Foundation

/// The two tiers of the test suite. The fast tier (`Scripts/test.sh`) runs on every change
/// within its time budget; the slow tier (`.ci/run`, after the fast tier) sets
/// `TRACESIM_SLOW_TESTS=1` and adds the full differentials over every bundled trace.
package enum TestTier {
    /// Whether this run is the slow tier's.
    package static let isSlow = ProcessInfo.processInfo.environment["TRACESIM_SLOW_TESTS"] == "1"

    /// The traces an end-to-end suite runs on: every bundled trace in the slow tier, the two short
    /// ones in the fast tier.
    package static var endToEndTraces: [String] {
        isSlow ? Repository.bundledTracePaths : shortTraces
    }

    /// The fast tier's two traces, in two formats and each about ten minutes long: the pixel 6
    /// walk (NMEA, 48 fixes over 9 min) and a Columbus logger's CSV (684 fixes over 11 min).
    package static let shortTraces = ["gnss_lib_py/pixel6.nmea", "gpsbabel/24173415.CSV"].map(Repository.trace)
}
