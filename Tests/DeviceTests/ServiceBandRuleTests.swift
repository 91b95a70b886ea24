import Device
import Geometry
import SimulationCore
import Testing
import Traces

/// Issue 31's service rules: the drawn significant-change distance and its coarse location,
/// the suspended app's receiver, and the flags a band flips (Low Power Mode, a first Always
/// request).
@Suite("Device rules: significant-change draws, the suspended receiver, band flags")
struct ServiceBandRuleTests {
    /// An Always app in the foreground monitoring significant changes, moving north 10 m every
    /// 30 s (so the 5-minute interval never decides once 100 m are covered) for `steps` steps.
    /// Returns the distance moved between consecutive events.
    static func eventSpacings(_ parameters: DeviceParameters, seed: UInt64 = 0, steps: Int) -> [Double] {
        var configuration = Setup.authorized(.authorizedAlways, parameters: parameters)
        configuration.seed = seed
        var timeline = DeviceRun.testing(configuration)
        timeline.stopLogging()
        timeline.at(0, .user(.launchedApp))
        timeline.at(1, .app(.startedSignificantChanges))
        var eventsAt: [Double] = []
        for step in 0...steps {
            let meters = Double(step) * 10
            let actions = timeline.record(2 + Double(step) * 30, north: meters)
            if actions.contains(where: { if case .significantChange = $0 { true } else { false } }) {
                eventsAt.append(meters)
            }
        }
        return zip(eventsAt.dropFirst(), eventsAt).map { $0 - $1 }
    }

    @Test("significantChangeService: each event draws the next distance; never under 500 m, about 750 m at the median")
    func drawnTriggerDistances() {
        let spacings = Self.eventSpacings(DeviceParameters(), steps: 20_000)
        #expect(spacings.count > 120)
        #expect(spacings.allSatisfy { $0 >= 500 })
        // The floor holds about 29 % of the draws; the rest spread above it.
        let atFloor = spacings.filter { $0 <= 510 }.count
        #expect(Double(atFloor) / Double(spacings.count) > 0.15)
        #expect(Double(atFloor) / Double(spacings.count) < 0.45)
        let sorted = spacings.sorted()
        let median = sorted[sorted.count / 2]
        #expect((650...900).contains(median), "median \(median)")
        #expect(sorted.last.map { $0 > 1_500 } == true)
        // The same seed draws the same distances; another seed others.
        #expect(Self.eventSpacings(DeviceParameters(), steps: 3_000) == Self.eventSpacings(DeviceParameters(), steps: 3_000))
        #expect(
            Self.eventSpacings(DeviceParameters(), seed: 1, steps: 3_000)
                != Self.eventSpacings(DeviceParameters(), steps: 3_000))
    }

    @Test("significantChangeService: a spread of 0 puts every trigger at the median, or at the 500 m floor above it")
    func undrawnTriggerDistances() {
        var tail = DeviceParameters()
        tail.significantChangeDistanceMedianMeters = 2_500
        tail.significantChangeDistanceSpread = 0
        let atTail = Self.eventSpacings(tail, steps: 1_600)
        #expect(atTail.count == 6)
        #expect(atTail.allSatisfy { (2_500...2_510).contains($0) }, "\(atTail)")
        let atFloor = Self.eventSpacings(Setup.fixedSignificantChanges, steps: 1_600)
        #expect(atFloor.count >= 31)
        #expect(atFloor.allSatisfy { (500...510).contains($0) }, "\(atFloor)")
        // A median under the floor still waits for the floor.
        var under = Setup.fixedSignificantChanges
        under.significantChangeDistanceMedianMeters = 100
        #expect(Self.eventSpacings(under, steps: 1_600) == atFloor)
    }

    @Test("significantChangeService: its draws come from a stream of their own, so a region's latency does not move")
    func ownStream() {
        func exitTime(withSignificantChanges: Bool) -> SimInstant? {
            var timeline = DeviceRun.testing(Setup.authorized(.authorizedAlways))
            timeline.at(0, .user(.launchedApp))
            timeline.at(1, .app(.startedMonitoring(MonitoredRegion(identifier: "home", center: DeviceRun.origin, radiusMeters: 100))))
            if withSignificantChanges { timeline.at(1, .app(.startedSignificantChanges)) }
            for step in 0...120 { timeline.record(2 + Double(step) * 10, north: Double(step) * 50) }
            return timeline.log.first { $0.action == .regionEvent(identifier: "home", .exit) }?.time
        }
        let alone = exitTime(withSignificantChanges: false)
        #expect(alone != nil)
        #expect(exitTime(withSignificantChanges: true) == alone)
    }

    @Test("significantChangeService: the location is cell or Wi-Fi grade, 500 m accuracy, within it about 68 % of the time")
    func coarseLocation() {
        var within = 0
        let phones = 400
        for seed in 0..<phones {
            var configuration = Setup.authorized(.authorizedAlways)
            configuration.seed = UInt64(seed)
            var timeline = DeviceRun.testing(configuration)
            timeline.at(0, .user(.launchedApp))
            timeline.at(1, .app(.startedSignificantChanges))
            let events = timeline.record(2, speed: 3).compactMap { action -> Fix? in
                if case .significantChange(let fix) = action { fix } else { nil }
            }
            #expect(events.count == 1)
            guard let fix = events.first else { continue }
            #expect(fix.horizontalAccuracy == .meters(500))
            #expect(fix.provider == .network)
            #expect(fix.speedMetersPerSecond == nil && fix.courseDegrees == nil)
            let offset = Geodesy.distanceMeters(DeviceRun.origin, Coordinate(latitude: fix.latitude, longitude: fix.longitude))
            if offset <= 500 { within += 1 }
        }
        let share = Double(within) / Double(phones)
        #expect((0.61...0.75).contains(share), "\(share)")
    }

    /// The old probe: Always without background updates, the screen locked at 10 s, so the app
    /// runs until the 70 s cutoff (80 s) and is suspended; fixes every second to 600 s.
    static func suspendedProbe(_ parameters: DeviceParameters) -> DeviceRun {
        var timeline = DeviceRun.testing(Setup.authorized(.authorizedAlways, parameters: parameters))
        timeline.at(0, .user(.launchedApp))
        timeline.startMeasuringGPS(at: timeline.time(0))
        timeline.at(1, .app(.startedLocationUpdates(LocationUpdateOptions())))
        timeline.at(10, .user(.lockedScreen))
        for second in stride(from: 11.0, through: 600, by: 1) { timeline.record(second, north: second * 10) }
        timeline.stopMeasuringGPS(at: timeline.time(600))
        return timeline
    }

    @Test("suspendedAppsReceiveNothing: a suspended app's updates stop, its receiver is off, nothing is queued")
    func suspendedAppRunsNoGPS() {
        var stopped = Self.suspendedProbe(DeviceParameters())
        #expect(stopped.device.lifecycle.phase == .suspended)
        #expect(stopped.actions(from: 79, to: 79).deliveries.count == 1)
        #expect(stopped.actions(from: 80, to: 80).drops == [.suspendedAppsReceiveNothing])
        #expect(!stopped.device.isReceiverRunning(at: stopped.time(600)))
        // GPS from the start of updates to the suspension: 79 s of the 600 s run.
        #expect(stopped.gpsOn.seconds(closingAt: stopped.time(600)) == 79)
        // Nothing waits for the resume; updates run again once the app does.
        #expect(stopped.at(700, .user(.unlockedScreen)).deliveries.isEmpty)
        #expect(stopped.record(701).deliveries.count == 1)

        // The band's optimistic end: the guide's queue, with the receiver on throughout.
        var queued = Self.suspendedProbe(Setup.queuedSuspendedUpdates)
        #expect(queued.actions(from: 80, to: 80).drops == [.suspendedAppUpdatesQueued])
        #expect(queued.gpsOn.seconds(closingAt: queued.time(600)) == 599)
        #expect(queued.at(700, .user(.unlockedScreen)).deliveries.count == 100)
    }

    @Test("lowPowerModeStopsWakes: turned off, Low Power Mode no longer keeps a region exit from waking a suspended app")
    func lowPowerModeFlag() {
        let stops = ProfileAndSwitchRuleTests.backgroundExit(
            ProfileAndSwitchRuleTests.parameters(.ios26) { $0.lowPowerMode = true }, keepAlive: false)
        #expect(
            stops.actions(from: 100, to: 125).contains(
                .regionEventDropped(identifier: "stationary", .exit, .lowPowerModeStopsWakes)))
        let wakes = ProfileAndSwitchRuleTests.backgroundExit(
            ProfileAndSwitchRuleTests.parameters(.ios26) {
                $0.lowPowerMode = true
                $0.lowPowerModeStopsWakes = false
            }, keepAlive: false)
        #expect(wakes.actions(from: 100, to: 125).contains(.regionEvent(identifier: "stationary", .exit)))
        #expect(DeviceParameters().lowPowerModeStopsWakes)
    }

    @Test(
        "firstAlwaysRequestFollowsProfile: the override grants provisional Always or plain When-In-Use on any profile",
        arguments: [
            (OSBehaviourProfile.ios26, Bool?.none, false), (.ios26, true, true), (.ios26, false, false),
            (.ios13, nil, true), (.ios13, false, false), (.ios13, true, true),
        ])
    func firstAlwaysOverride(profile: OSBehaviourProfile, override: Bool?, provisional: Bool) {
        var configuration = Device.Configuration()
        configuration.parameters.osProfile = profile
        configuration.parameters.firstAlwaysRequestGrantsProvisionalAlways = override
        var timeline = DeviceRun.testing(configuration, user: Setup.user([:]))
        timeline.at(0, .user(.launchedApp))
        timeline.at(1, .app(.requestedAlways))
        let answered = timeline.at(2, .user(.answeredPrompt(.allowWhileUsing(precise: true))))
        #expect(answered == [.authorizationChanged(provisional ? .authorizedAlways : .authorizedWhenInUse, .fullAccuracy)])
        #expect(timeline.device.authorization.state.isProvisionalAlways == provisional)
        #expect(timeline.device.authorization.state.isDeferredUpgradePending)
    }
}
