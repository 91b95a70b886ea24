import Device

/// How one run handed the app its locations (issue 30 §6): how many `didUpdateLocations`
/// calls, how many locations they carried and the most in one call, and, for an app that
/// records, how many it was handed but did not keep. A client that keeps only `locations.last`
/// shows its loss here when a call carries several (`locationsPerDelivery`).
public struct DeliveryTally: Sendable, Equatable {
    /// `locationManager(_:didUpdateLocations:)` calls.
    public var calls = 0
    /// Locations those calls carried.
    public var locations = 0
    /// The most locations one call carried.
    public var largestCall = 0
    /// Significant-change locations handed to the app.
    public var significantChanges = 0
    /// Locations held for a call that the trace ended before (`locationsPerDelivery` above 1).
    public var heldWhenTraceEnded = 0
    /// Locations the app was handed that it did not keep: the standard locations plus the
    /// significant-change ones (iOS hands both to `didUpdateLocations`), less the fixes the
    /// app's engine accepted (`Recorder.acceptedFixCount`, what the trace metrics call kept),
    /// never below 0. `nil` unless the app records (`RecordingClient`).
    public var deliveredNotKept: Int?
    /// The fields of the handed-over locations that the device filled in because the trace
    /// lacked them.
    public var derivedByDevice: DerivedLocationFields = []

    /// An empty tally.
    public init() {}

    /// Counts one `didUpdateLocations` call carrying `size` locations.
    @usableFromInline mutating func countCall(of size: Int) {
        calls += 1
        locations += size
        if size > largestCall { largestCall = size }
    }

    /// Counts `count` `didUpdateLocations` calls of one location each (a run handed over).
    @usableFromInline mutating func countCalls(ofOne count: Int) {
        calls += count
        locations += count
        if count > 0 && largestCall < 1 { largestCall = 1 }
    }

    /// Sets `deliveredNotKept` from the number of locations the app kept.
    /// - Parameter kept: the fixes the app's engine accepted (`Recorder.acceptedFixCount`); a
    ///   location the engine was handed but held, rejected or ignored is not kept.
    package mutating func noteKept(_ kept: Int) {
        deliveredNotKept = max(0, locations + significantChanges - kept)
    }
}
