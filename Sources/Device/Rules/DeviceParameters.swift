/// The numbers behind the device's rules that are observation, SDK practice or product
/// decision rather than Apple documentation. Every one is printable by `tracesim rules`
/// with its default, unit and source.
public struct DeviceParameters: Sendable, Equatable {
    /// Seconds after the screen locks or the app leaves the foreground during which a
    /// When-In-Use app is still "in use" (and receives fixes without a background session).
    public var whenInUseLockCutoffSeconds = 70.0
    /// The iOS generation whose behaviour the device follows where iOS changed.
    public var osProfile = OSBehaviourProfile.current
    /// Whether a region event relaunches an Always app the user force-quit; `nil` follows
    /// `osProfile` (yes up to ios18, no on ios26).
    public var regionRelaunchAfterForceQuit: Bool? = nil
    /// Whether a significant-change event relaunches an Always app the user force-quit; `nil`
    /// follows `osProfile` (yes up to ios18, no on ios26).
    public var significantChangeRelaunchAfterForceQuit: Bool? = nil
    /// Low Power Mode is on: the system pauses background activity, so region,
    /// significant-change and visit events no longer wake or relaunch the app.
    public var lowPowerMode = false
    /// Background App Refresh is on for the app (Settings); off, region, significant-change and
    /// visit events no longer wake or relaunch it.
    public var backgroundAppRefresh = true
    /// The phone was restarted before the replay and has not been unlocked since: regions,
    /// significant changes and visits are not monitored until the person first unlocks it.
    public var startsBeforeFirstUnlock = false
    /// How often the system ends the app under memory pressure while it is in the background or
    /// suspended, drawn from the device's seeded generator; 0 turns it off.
    public var memoryPressureKillsPerHour = 0.0
    /// Seconds a relaunched or woken app runs in the background to handle an event. 10 s (the
    /// archived guide), inside the range an Apple engineer gives (forums 815618: from
    /// "immediately after return" up to about 30 s, older APIs such as region monitoring
    /// longer); about 0 s and about 30 s are the band's ends.
    public var wakeWindowSeconds = 10.0
    /// Seconds a backgrounded app that holds nothing keeping it running still runs before the
    /// system suspends it.
    public var backgroundSuspensionGraceSeconds = 5.0
    /// The most location updates kept for a suspended app, delivered when it runs again; the
    /// oldest are dropped first.
    public var suspendedLocationQueueLimit = 100
    /// The horizontal accuracy, in metres, the receiver reports for a recorded fix whose source
    /// gave none (a TCX, a KML, a dashcam log): iOS never delivers a receiver fix without one.
    /// An assumption, not a measurement; `--assume-accuracy` sets it.
    public var assumedHorizontalAccuracyMeters = 10.0
    /// Below this speed a course derived from the previous fix is left invalid (-1), as iOS
    /// leaves `course` when it cannot tell a direction.
    public var courseMinimumSpeedMetersPerSecond = 0.5
    /// How many locations one `didUpdateLocations` call carries: 1 hands each over at once;
    /// more holds them until that many arrived, as when locations arrive faster than the app
    /// is handed them.
    public var locationsPerDelivery = 1
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
    /// How far past a region's radius the device must go before an exit is reported (the exit
    /// overshoot), and never less far out than an entry is reported, so that no position is both.
    /// 50 m: exits on iOS 18.5 and 26.3.1 reach the app 50-100 m past the radius
    /// (transistorsoft/react-native-background-geolocation #2353, #2597), a walker's 20 s dwell
    /// and the latency included; older reports say about 200 m (cordova-background-geolocation-lt
    /// #541, 2017) or 1.5 × the radius (owntracks/ios #675).
    public var regionCushionMeters = 50.0
    /// Seconds the device must stay past the boundary before a crossing is reported.
    public var regionDwellSeconds = 20.0
    /// Regions smaller than this behave as if this large.
    public var regionMinimumEffectiveRadiusMeters = 200.0
    /// How far inside a region's effective boundary the device must go before an entry (at
    /// most half the effective radius).
    public var regionEntryCushionMeters = 200.0
    /// Shortest delay between a region crossing (after the dwell) and its delivery.
    public var regionLatencyMinimumSeconds = 0.0
    /// Longest delay between a region crossing (after the dwell) and its delivery. 15 s: Radius
    /// Networks (2015, about 100 trials, 60 m fence, locked phones) saw arrivals "nearly every
    /// time within 30 seconds" of the crossing, and a walker's exit stays within the 50-100 m
    /// reported on iOS 18.5 (#2353) only with at most 15 s. Apple's "3 to 5 minutes on
    /// average" (startMonitoring(for:)) is the pessimistic end of the band.
    public var regionLatencyMaximumSeconds = 15.0
    /// Share of region crossings the OS never reports, drawn per crossing from a generator of
    /// the region monitor's own, so it moves no other random draw; 0 reports every one. 0.07:
    /// Radius Networks' third-party app saw 93 of about 100 test crossings (2015); Shevchenko &
    /// Reips (2024, iOS and Android pooled) saw 82.5 % of 360 notified, the pessimistic end.
    public var regionMissProbability = 0.07
    /// Seconds the event that raised the deferred upgrade prompt is kept for the answer; 0
    /// drops it at once.
    public var deferredUpgradeEventHoldSeconds = 600.0
    /// Seconds Allow Once survives after the app stops being in use (0: it lapses at the cutoff).
    public var allowOnceLapseSeconds = 0.0
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
    /// The median distance from the last significant-change event before the next one; each
    /// event draws the next distance, log-normal around this median, never below
    /// `significantChangeDistanceMeters` (Long Weekend Mobile 2010: 750 m triggers half the time).
    public var significantChangeDistanceMedianMeters = 750.0
    /// The spread (σ of the natural logarithm) of the significant-change trigger distance; 0
    /// makes every trigger the median, or the floor if that is larger. The default,
    /// ln(2500 / 750) / 1.645, puts 95 % of triggers within 2,500 m (Long Weekend Mobile 2010).
    public var significantChangeDistanceSpread = 0.732
    /// The horizontal accuracy of a significant-change event's location, from cell and Wi-Fi
    /// positioning; its position is displaced to match (within this radius 68 % of the time).
    public var significantChangeHorizontalAccuracyMeters = 500.0
    /// Whether Core Location keeps the receiver on for a suspended app's running updates and
    /// queues them for when it runs again (Apple's background-updates guide). Off, a suspended
    /// app's updates stop, as `allowsBackgroundLocationUpdates` and `startUpdatingLocation()`
    /// describe: nothing is queued and the receiver is off until the app runs again.
    public var suspendedAppQueuesUpdates = false
    /// Whether Low Power Mode (when `lowPowerMode` turns it on) stops region, significant-change
    /// and visit events from waking or relaunching the app; only an archived Apple guide says so.
    public var lowPowerModeStopsWakes = true
    /// Whether Allow While Using on a first Always request grants provisional Always (Apple's
    /// iOS 13-era page) rather than plain When-In-Use; `nil` follows `osProfile` (provisional on
    /// ios13 only).
    public var firstAlwaysRequestGrantsProvisionalAlways: Bool? = nil

    /// Every parameter at its default, as `tracesim rules` lists them with their sources.
    public init() {}

    /// The first pair of parameters that contradict each other, or `nil` when they agree: a
    /// minimum above its maximum, or motion speed thresholds out of order (walking ≤ running ≤
    /// automotive). Each value may be within its own range and still make no sense beside its
    /// partner (`other`); configuration readers report the `name` with the `reason`, which names
    /// both values.
    public var inconsistency: (name: String, other: String, reason: String)? {
        func text(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        }
        let ordered: [(String, Double, String, Double)] = [
            (
                "motionOnsetLatencyMinimumSeconds", motionOnsetLatencyMinimumSeconds,
                "motionOnsetLatencyMaximumSeconds", motionOnsetLatencyMaximumSeconds
            ),
            (
                "reducedDisplacementMinimumMeters", reducedDisplacementMinimumMeters,
                "reducedDisplacementMaximumMeters", reducedDisplacementMaximumMeters
            ),
            (
                "regionLatencyMinimumSeconds", regionLatencyMinimumSeconds, "regionLatencyMaximumSeconds",
                regionLatencyMaximumSeconds
            ),
            (
                "motionWalkingSpeedMetersPerSecond", motionWalkingSpeedMetersPerSecond,
                "motionRunningSpeedMetersPerSecond", motionRunningSpeedMetersPerSecond
            ),
            (
                "motionRunningSpeedMetersPerSecond", motionRunningSpeedMetersPerSecond,
                "motionAutomotiveSpeedMetersPerSecond", motionAutomotiveSpeedMetersPerSecond
            ),
        ]
        for (lowName, low, highName, high) in ordered where !(low <= high) {
            return (lowName, highName, "\(text(low)) is above \(highName) (\(text(high))); it must be at most that")
        }
        return nil
    }

    /// The range from `minimum` to `maximum` for a uniform draw. A library user may build
    /// parameters that `inconsistency` would refuse; the range then runs the other way rather
    /// than trapping. Equal to `minimum...maximum` whenever the pair is consistent.
    static func span(_ minimum: Double, _ maximum: Double) -> ClosedRange<Double> {
        minimum <= maximum ? minimum...maximum : maximum...minimum
    }

    /// Whether Allow While Using on a first Always request grants provisional Always: the
    /// override when set, otherwise the OS profile's rule (ios13 only).
    public var firstAlwaysRequestGrantsProvisional: Bool {
        firstAlwaysRequestGrantsProvisionalAlways ?? (osProfile == .ios13)
    }

    /// Whether an event of this kind relaunches an Always app the user force-quit: the
    /// override when set, otherwise the OS profile's rule. Visits never do (no source says they
    /// relaunch a force-quit app).
    public func relaunchesAfterForceQuit(for reason: LaunchReason) -> Bool {
        switch reason {
        case .regionEvent: regionRelaunchAfterForceQuit ?? osProfile.relaunchesForceQuitAppForLocationEvents
        case .significantChange:
            significantChangeRelaunchAfterForceQuit ?? osProfile.relaunchesForceQuitAppForLocationEvents
        case .visit, .user: false
        }
    }

    /// The rule that keeps an event of this kind from relaunching a force-quit app, or `nil`
    /// when it relaunches it: the profile's rule when the profile decided, otherwise the
    /// general force-quit rule.
    func forceQuitRelaunchRefusal(for reason: LaunchReason) -> DeviceRule? {
        if relaunchesAfterForceQuit(for: reason) { return nil }
        let override: Bool?
        switch reason {
        case .regionEvent: override = regionRelaunchAfterForceQuit
        case .significantChange: override = significantChangeRelaunchAfterForceQuit
        case .visit, .user: return .forceQuitStopsEverything
        }
        return override == nil ? .forceQuitNoRelaunchOnIOS26 : .forceQuitStopsEverything
    }
}
