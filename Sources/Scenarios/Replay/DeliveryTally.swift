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
    /// Locations the app was handed (standard and significant-change) that its engine did not
    /// take in; `nil` unless the app records (`RecordingClient`).
    public var deliveredNotKept: Int?
    /// The fields of the handed-over locations that the device filled in because the trace
    /// lacked them.
    public var derivedByDevice: DerivedLocationFields = []

    /// An empty tally.
    public init() {}

    /// Counts one `didUpdateLocations` call carrying `size` locations.
    mutating func countCall(of size: Int) {
        calls += 1
        locations += size
        if size > largestCall { largestCall = size }
    }

    /// Sets `deliveredNotKept` from the number of locations the app's engine took in.
    /// - Parameter kept: what the engine counted as delivered to it (`Recorder.deliveredFixCount`).
    public mutating func noteKept(_ kept: Int) {
        deliveredNotKept = max(0, locations + significantChanges - kept)
    }
}
