// `AppClock` where the shim re-exports Apple's Core Location: the same API on the real clock,
// so code written against the seam compiles in an iOS app unchanged. Elsewhere (or with
// TRACESIM_FACADE) the facade's `AppClock`, re-exported by the shim, runs in virtual time.
#if canImport(CoreLocation) && !TRACESIM_FACADE
    import Foundation

    /// The clock seam on Apple's frameworks: every call is the one it replaces.
    public enum AppClock {
        /// `Date()`.
        public static var now: Date { Date() }

        /// `DispatchQueue.main.asyncAfter(deadline: .now() + seconds, execute: work)`.
        public static func asyncAfter(seconds: TimeInterval, execute work: @escaping @Sendable () -> Void) {
            DispatchQueue.main.asyncAfter(deadline: .now() + seconds, execute: work)
        }

        /// `Timer.scheduledTimer(withTimeInterval:repeats:block:)`, with a block that need not be
        /// `@Sendable`: a run-loop timer fires on the thread that scheduled it.
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
            return Timer.scheduledTimer(withTimeInterval: interval, repeats: repeats) { block.body($0) }
        }

        /// `Task.sleep(for:)`.
        @available(macOS 13.0, iOS 16.0, watchOS 9.0, tvOS 16.0, visionOS 1.0, *)
        public static func sleep(for duration: Duration) async throws {
            try await Task.sleep(for: duration)
        }

        /// `Task.sleep(nanoseconds:)` for `seconds`.
        public static func sleep(seconds: TimeInterval) async throws {
            try await Task.sleep(nanoseconds: UInt64(min(max(seconds, 0) * 1e9, 1.8e19)))
        }
    }

    /// A timer's block, run on the thread that scheduled the timer.
    private struct SameThreadBlock: @unchecked Sendable {
        let body: (Timer) -> Void

        init(_ body: @escaping (Timer) -> Void) { self.body = body }
    }
#endif
