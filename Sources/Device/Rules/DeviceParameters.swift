/// Which iOS generation's behaviour to simulate where iOS changed (fact sheet d 17).
public enum OSBehaviourProfile: String, Sendable, CaseIterable {
    /// Current iOS: a first Always request settles on `authorizedWhenInUse`; the upgrade may
    /// be offered later, when an Always-requiring event occurs.
    case current
    /// iOS 13: a first Always request grants provisional `authorizedAlways` until the
    /// deferred upgrade prompt is answered.
    case ios13
}

/// The numbers behind the device's rules that are observation, SDK practice or product
/// decision rather than Apple documentation. Every one is printable by `tracesim rules`
/// with its default, unit and source.
public struct DeviceParameters: Sendable, Equatable {
    /// Seconds after the screen locks or the app leaves the foreground during which a
    /// When-In-Use app is still "in use" (and receives fixes without a background session).
    public var whenInUseLockCutoffSeconds = 70.0
    /// The OS behaviour profile for first-time Always requests.
    public var osProfile = OSBehaviourProfile.current
    /// Seconds a relaunched or woken app runs in the background to handle an event.
    public var wakeWindowSeconds = 10.0
    /// Whether a region exit may relaunch an app the user force-quit (under Always).
    public var regionRelaunchAfterForceQuit = true
    /// Seconds the device must stay put before pausesLocationUpdatesAutomatically pauses updates.
    public var autoPauseAfterStationarySeconds = 900.0
    /// How far the device may wander and still count as staying put, for the automatic pause.
    public var autoPauseStationaryRadiusMeters = 50.0
    /// Reduced-accuracy fixes delivered per hour at most.
    public var reducedFixesPerHour = 4.0
    /// The horizontal accuracy a reduced-accuracy fix reports.
    public var reducedHorizontalAccuracyMeters = 2500.0
    /// The smallest displacement of a reduced-accuracy position.
    public var reducedDisplacementMinimumMeters = 1000.0
    /// The largest displacement of a reduced-accuracy position.
    public var reducedDisplacementMaximumMeters = 20000.0
    /// Seconds one displacement holds before a new one is drawn.
    public var reducedDisplacementHoldSeconds = 900.0
    /// The most regions one app may monitor.
    public var maximumMonitoredRegions = 20
    /// How far past a region's boundary the device must go before an exit is reported.
    public var regionCushionMeters = 200.0
    /// Seconds the device must stay past the boundary before a crossing is reported.
    public var regionDwellSeconds = 20.0
    /// Regions smaller than this behave as if this large.
    public var regionMinimumEffectiveRadiusMeters = 200.0
    /// Distance from the last significant-change event before the next one.
    public var significantChangeDistanceMeters = 500.0
    /// Minimum seconds between significant-change events.
    public var significantChangeIntervalSeconds = 300.0
    /// How far the device may move and still be at the same visited place.
    public var visitRadiusMeters = 100.0
    /// Seconds at a place before a visit's arrival is reported.
    public var visitArrivalDwellSeconds = 300.0
    /// Shortest delay before a derived activity change is reported.
    public var motionOnsetLatencyMinimumSeconds = 2.0
    /// Longest delay before a derived activity change is reported.
    public var motionOnsetLatencyMaximumSeconds = 10.0
    /// Share of derived samples at a stop that also carry `automotive` (the red-light flicker).
    public var motionStopFlickerProbability = 0.24
    /// Speed from which a derived sample reads `walking`.
    public var motionWalkingSpeedMetersPerSecond = 0.5
    /// Speed from which a derived sample reads `running`.
    public var motionRunningSpeedMetersPerSecond = 2.5
    /// Speed from which a derived sample reads `automotive`.
    public var motionAutomotiveSpeedMetersPerSecond = 7.0

    /// Every parameter at its default, as `tracesim rules` lists them with their sources.
    public init() {}
}

/// One parameter's entry in `tracesim rules`.
public struct DeviceParameterInfo: Sendable {
    /// The property name in `DeviceParameters` and in scenario files.
    public var name: String
    /// The value, as text.
    public var value: String
    /// The unit (`s`, `m`, `per hour`, ...), or empty.
    public var unit: String
    /// What it controls.
    public var summary: String
    /// The fact-sheet row.
    public var source: String
    /// How strong that source is.
    public var evidence: Evidence
}

extension DeviceParameters {
    /// Every parameter with its current value, in declaration order.
    public var catalogue: [DeviceParameterInfo] {
        func number(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        }
        return [
            DeviceParameterInfo(
                name: "whenInUseLockCutoffSeconds", value: number(whenInUseLockCutoffSeconds), unit: "s",
                summary: "When-In-Use stays in use this long after lock or backgrounding",
                source: "d 1 (product default; Apple: a few seconds, observed 13 s)", evidence: .product),
            DeviceParameterInfo(
                name: "osProfile", value: osProfile.rawValue, unit: "",
                summary: "first-time Always request behaviour: current or ios13", source: "d 17", evidence: .product),
            DeviceParameterInfo(
                name: "wakeWindowSeconds", value: number(wakeWindowSeconds), unit: "s",
                summary: "background run time after a region or significant-change wake", source: "a4 #11",
                evidence: .appleArchived),
            DeviceParameterInfo(
                name: "regionRelaunchAfterForceQuit", value: String(regionRelaunchAfterForceQuit), unit: "",
                summary: "a region exit relaunches a force-quit Always app", source: "a4 #13, d 6", evidence: .sdk),
            DeviceParameterInfo(
                name: "autoPauseAfterStationarySeconds", value: number(autoPauseAfterStationarySeconds), unit: "s",
                summary: "stillness before pausesLocationUpdatesAutomatically pauses", source: "a4 #7, a9",
                evidence: .observed),
            DeviceParameterInfo(
                name: "autoPauseStationaryRadiusMeters", value: number(autoPauseStationaryRadiusMeters), unit: "m",
                summary: "wander allowed while counting as still", source: "a4 #7", evidence: .simulator),
            DeviceParameterInfo(
                name: "reducedFixesPerHour", value: number(reducedFixesPerHour), unit: "per hour",
                summary: "reduced-accuracy fixes delivered per hour at most", source: "a2 #3, a2 #4",
                evidence: .wwdc),
            DeviceParameterInfo(
                name: "reducedHorizontalAccuracyMeters", value: number(reducedHorizontalAccuracyMeters), unit: "m",
                summary: "accuracy reported by a reduced fix", source: "a2 #5", evidence: .observed),
            DeviceParameterInfo(
                name: "reducedDisplacementMinimumMeters", value: number(reducedDisplacementMinimumMeters), unit: "m",
                summary: "smallest displacement of a reduced fix", source: "a2 #3", evidence: .apple),
            DeviceParameterInfo(
                name: "reducedDisplacementMaximumMeters", value: number(reducedDisplacementMaximumMeters), unit: "m",
                summary: "largest displacement of a reduced fix", source: "a2 #3", evidence: .apple),
            DeviceParameterInfo(
                name: "reducedDisplacementHoldSeconds", value: number(reducedDisplacementHoldSeconds), unit: "s",
                summary: "how long one displacement holds", source: "a2 #4, a2 #6", evidence: .simulator),
            DeviceParameterInfo(
                name: "maximumMonitoredRegions", value: String(maximumMonitoredRegions), unit: "regions",
                summary: "regions one app may monitor", source: "a6 #1", evidence: .apple),
            DeviceParameterInfo(
                name: "regionCushionMeters", value: number(regionCushionMeters), unit: "m",
                summary: "distance past the boundary before an exit", source: "a6 #4", evidence: .appleArchived),
            DeviceParameterInfo(
                name: "regionDwellSeconds", value: number(regionDwellSeconds), unit: "s",
                summary: "time past the boundary before a crossing", source: "a6 #4", evidence: .appleArchived),
            DeviceParameterInfo(
                name: "regionMinimumEffectiveRadiusMeters", value: number(regionMinimumEffectiveRadiusMeters),
                unit: "m", summary: "smaller regions behave as this large", source: "a6 #6", evidence: .sdk),
            DeviceParameterInfo(
                name: "significantChangeDistanceMeters", value: number(significantChangeDistanceMeters), unit: "m",
                summary: "movement between significant-change events", source: "a5 #5", evidence: .apple),
            DeviceParameterInfo(
                name: "significantChangeIntervalSeconds", value: number(significantChangeIntervalSeconds), unit: "s",
                summary: "minimum time between significant-change events", source: "a5 #5", evidence: .apple),
            DeviceParameterInfo(
                name: "visitRadiusMeters", value: number(visitRadiusMeters), unit: "m",
                summary: "movement allowed within one visited place", source: "d 15", evidence: .simulator),
            DeviceParameterInfo(
                name: "visitArrivalDwellSeconds", value: number(visitArrivalDwellSeconds), unit: "s",
                summary: "time at a place before the arrival is reported", source: "d 15", evidence: .simulator),
            DeviceParameterInfo(
                name: "motionOnsetLatencyMinimumSeconds", value: number(motionOnsetLatencyMinimumSeconds), unit: "s",
                summary: "shortest lag of a derived activity change", source: "a7 #4", evidence: .observed),
            DeviceParameterInfo(
                name: "motionOnsetLatencyMaximumSeconds", value: number(motionOnsetLatencyMaximumSeconds), unit: "s",
                summary: "longest lag of a derived activity change", source: "a7 #4", evidence: .observed),
            DeviceParameterInfo(
                name: "motionStopFlickerProbability", value: number(motionStopFlickerProbability), unit: "",
                summary: "share of stop samples also reading automotive", source: "a7 #4", evidence: .observed),
            DeviceParameterInfo(
                name: "motionWalkingSpeedMetersPerSecond", value: number(motionWalkingSpeedMetersPerSecond),
                unit: "m/s", summary: "derived walking from this speed", source: "a7 #4", evidence: .simulator),
            DeviceParameterInfo(
                name: "motionRunningSpeedMetersPerSecond", value: number(motionRunningSpeedMetersPerSecond),
                unit: "m/s", summary: "derived running from this speed", source: "a7 #4", evidence: .simulator),
            DeviceParameterInfo(
                name: "motionAutomotiveSpeedMetersPerSecond", value: number(motionAutomotiveSpeedMetersPerSecond),
                unit: "m/s", summary: "derived automotive from this speed", source: "a7 #4", evidence: .simulator),
        ]
    }
}
