import Device
import Geometry
import SimulationCore
import Testing
import Traces

/// One test per lifecycle and delivery rule, named after the rule (`DeviceRule`).
@Suite("Device rules: lifecycle and location delivery")
struct DeliveryRuleTests {
    /// Launch, start updates with `options`, and lock the screen at 10 s.
    static func lockedTimeline(
        _ status: AuthorizationStatus, options: LocationUpdateOptions = LocationUpdateOptions(),
        configuration: Device.Configuration? = nil
    ) -> DeviceRun {
        var timeline = DeviceRun.testing(configuration ?? Setup.authorized(status))
        timeline.at(0, .user(.launchedApp))
        timeline.at(1, .app(.startedLocationUpdates(options)))
        timeline.at(10, .user(.lockedScreen))
        return timeline
    }

    @Test("whenInUseStopsAfterCutoff: a fix 69 s after the lock is delivered, one at 71 s is not")
    func whenInUseStopsAfterCutoff() {
        var timeline = Self.lockedTimeline(.authorizedWhenInUse)
        #expect(timeline.record(79, north: 100).deliveries.count == 1)
        #expect(timeline.record(81, north: 120).drops == [.whenInUseStopsAfterCutoff])
        // The cutoff is a parameter: 13 s matches the one field observation.
        var parameters = DeviceParameters()
        parameters.whenInUseLockCutoffSeconds = 13
        var short = Self.lockedTimeline(
            .authorizedWhenInUse, configuration: Setup.authorized(.authorizedWhenInUse, parameters: parameters))
        #expect(short.record(22).deliveries.count == 1)
        #expect(short.record(24).drops == [.whenInUseStopsAfterCutoff])
    }

    @Test("inUseIncludesCutoffAfterForeground: in use at 69 s after backgrounding, not at 70 s")
    func inUseIncludesCutoffAfterForeground() {
        var timeline = DeviceRun.testing(Setup.authorized(.authorizedWhenInUse))
        timeline.at(0, .user(.launchedApp))
        timeline.at(5, .user(.movedAppToBackground))
        #expect(timeline.device.isInUse(at: timeline.time(74)))
        #expect(!timeline.device.isInUse(at: timeline.time(75)))
        timeline.at(80, .user(.movedAppToForeground))
        #expect(timeline.device.isInUse(at: timeline.time(80)))
    }

    @Test("backgroundSessionKeepsInUse: background updates started in the foreground keep When-In-Use delivering")
    func backgroundSessionKeepsInUse() {
        var timeline = Self.lockedTimeline(
            .authorizedWhenInUse, options: LocationUpdateOptions(allowsBackgroundLocationUpdates: true))
        #expect(timeline.record(600, north: 500).deliveries.count == 1)
        var session = DeviceRun.testing(Setup.authorized(.authorizedWhenInUse))
        session.at(0, .user(.launchedApp))
        session.at(1, .app(.startedBackgroundSession))
        session.at(1, .app(.startedLocationUpdates(LocationUpdateOptions())))
        session.at(10, .user(.lockedScreen))
        #expect(session.record(600).deliveries.count == 1)
        session.at(601, .app(.endedBackgroundSession))
        #expect(session.record(602).drops == [.whenInUseStopsAfterCutoff])
    }

    @Test("startingUpdatesInBackgroundFails: a When-In-Use app cannot start updates once not in use")
    func startingUpdatesInBackgroundFails() {
        var timeline = DeviceRun.testing(Setup.authorized(.authorizedWhenInUse))
        timeline.at(0, .user(.launchedApp))
        // A session keeps the app running past the cutoff; once it ends the app is not in use.
        timeline.at(0, .app(.startedBackgroundSession))
        timeline.at(1, .user(.lockedScreen))
        #expect(timeline.at(30, .app(.startedLocationUpdates(LocationUpdateOptions()))).isEmpty)
        timeline.at(30, .app(.stoppedLocationUpdates))
        timeline.at(100, .app(.endedBackgroundSession))
        #expect(
            timeline.at(100, .app(.startedLocationUpdates(LocationUpdateOptions())))
                == [.locationUpdatesFailed(.startingUpdatesInBackgroundFails)])
    }

    @Test("backgroundUpdatesWithoutModeCrash: allowsBackgroundLocationUpdates without the mode terminates the app")
    func backgroundUpdatesWithoutModeCrash() {
        var plist = InfoPlist()
        plist.hasLocationBackgroundMode = false
        var timeline = DeviceRun.testing(Setup.authorized(.authorizedAlways, infoPlist: plist))
        timeline.at(0, .user(.launchedApp))
        #expect(
            timeline.at(1, .app(.startedLocationUpdates(LocationUpdateOptions(allowsBackgroundLocationUpdates: true))))
                == [.appTerminated(.backgroundUpdatesWithoutModeCrash)])
    }

    @Test("suspendedAppsReceiveNothing: a suspended app without updates, or a terminated one, gets no fixes")
    func suspendedAppsReceiveNothing() {
        var timeline = Self.lockedTimeline(.authorizedAlways)
        timeline.at(11, .app(.stoppedLocationUpdates))
        timeline.at(12, .system(.suspendedApp))
        #expect(timeline.device.lifecycle.phase == .suspended)
        #expect(timeline.record(13).drops == [.suspendedAppsReceiveNothing])
        timeline.at(20, .system(.terminatedApp))
        #expect(timeline.record(21).drops == [.suspendedAppsReceiveNothing])
        // Background updates keep an Always app running: no suspension.
        var running = Self.lockedTimeline(
            .authorizedAlways, options: LocationUpdateOptions(allowsBackgroundLocationUpdates: true))
        running.at(20, .system(.suspendedApp))
        #expect(running.device.lifecycle.phase == .background)
    }

    @Test("forceQuitStopsEverything: nothing after a force-quit; a region exit relaunches only if the parameter allows")
    func forceQuitStopsEverything() {
        func run(relaunch: Bool) -> DeviceRun {
            var parameters = Setup.immediateRegions
            parameters.regionRelaunchAfterForceQuit = relaunch
            var timeline = DeviceRun.testing(Setup.authorized(.authorizedAlways, parameters: parameters))
            timeline.at(0, .user(.launchedApp))
            timeline.at(1, .app(.startedLocationUpdates(LocationUpdateOptions(allowsBackgroundLocationUpdates: true))))
            timeline.at(
                1, .app(.startedMonitoring(MonitoredRegion(identifier: "stationary", center: DeviceRun.origin, radiusMeters: 25))))
            timeline.record(2)
            timeline.at(5, .user(.forceQuitApp))
            #expect(timeline.record(6).drops == [.forceQuitStopsEverything])
            for second in stride(from: 100.0, through: 130, by: 1) { timeline.record(second, north: 400) }
            return timeline
        }
        let relaunched = run(relaunch: true).actions(from: 100, to: 130)
        #expect(relaunched.contains(.appLaunched(.regionEvent, inBackground: true)))
        #expect(relaunched.contains(.regionEvent(identifier: "stationary", .exit)))
        let gone = run(relaunch: false).actions(from: 100, to: 130)
        #expect(gone.contains(.regionEventDropped(identifier: "stationary", .exit, .forceQuitStopsEverything)))
        #expect(!gone.contains(.appLaunched(.regionEvent, inBackground: true)))
    }

    @Test("wakeWindowAfterRelaunch: a relaunched app runs for the wake window, then is suspended")
    func wakeWindowAfterRelaunch() {
        var timeline = DeviceRun.testing(Setup.authorized(.authorizedAlways, parameters: Setup.immediateRegions))
        timeline.at(0, .user(.launchedApp))
        timeline.at(1, .app(.startedMonitoring(MonitoredRegion(identifier: "depot", center: DeviceRun.origin, radiusMeters: 100))))
        timeline.record(2)
        timeline.at(5, .system(.terminatedApp))
        for second in stride(from: 100.0, through: 120, by: 1) { timeline.record(second, north: 400) }
        let launch = timeline.log.first { $0.action == .appLaunched(.regionEvent, inBackground: true) }
        let launchTime = launch?.time ?? timeline.time(0)
        #expect(timeline.device.lifecycle.phase == .background)
        timeline.advance(to: launchTime.seconds(since: timeline.start) + 9.9)
        #expect(timeline.device.lifecycle.phase == .background)
        timeline.advance(to: launchTime.seconds(since: timeline.start) + 10)
        #expect(timeline.device.lifecycle.phase == .suspended)
    }

    @Test(
        "noDeliveryWithoutAuthorization: not determined, denied or restricted: nothing delivered",
        arguments: [AuthorizationStatus.notDetermined, .denied, .restricted])
    func noDeliveryWithoutAuthorization(status: AuthorizationStatus) {
        var timeline = DeviceRun.testing(Setup.authorized(status))
        timeline.at(0, .user(.launchedApp))
        timeline.at(1, .app(.startedLocationUpdates(LocationUpdateOptions())))
        #expect(timeline.record(2).drops == [.noDeliveryWithoutAuthorization])
    }

    @Test("updatesMustBeRunning: an authorized app that has not started updates gets nothing")
    func updatesMustBeRunning() {
        var timeline = DeviceRun.testing(Setup.authorized(.authorizedAlways))
        timeline.at(0, .user(.launchedApp))
        #expect(timeline.record(1).drops == [.updatesMustBeRunning])
        timeline.at(2, .app(.startedLocationUpdates(LocationUpdateOptions())))
        #expect(timeline.record(3).deliveries.count == 1)
        timeline.at(4, .app(.stoppedLocationUpdates))
        #expect(timeline.record(5).drops == [.updatesMustBeRunning])
    }

    @Test("alwaysContinuesInBackground: under Always fixes keep coming long after the lock")
    func alwaysContinuesInBackground() {
        var timeline = Self.lockedTimeline(
            .authorizedAlways, options: LocationUpdateOptions(allowsBackgroundLocationUpdates: true))
        #expect(timeline.record(3600, north: 2000).deliveries.count == 1)
    }

    @Test("automaticPause: 15 minutes in one place pauses updates until the app restarts them")
    func automaticPause() {
        var timeline = Self.lockedTimeline(
            .authorizedAlways, options: LocationUpdateOptions(allowsBackgroundLocationUpdates: true))
        #expect(!timeline.record(11, north: 0).contains(.locationUpdatesPaused))
        #expect(!timeline.record(910, north: 10).contains(.locationUpdatesPaused))
        #expect(timeline.record(911, north: 10).contains(.locationUpdatesPaused))
        #expect(timeline.record(912).drops == [.automaticPause])
        var off = Self.lockedTimeline(
            .authorizedAlways,
            options: LocationUpdateOptions(allowsBackgroundLocationUpdates: true, pausesLocationUpdatesAutomatically: false))
        #expect(!off.record(11).contains(.locationUpdatesPaused))
        #expect(!off.record(2000).contains(.locationUpdatesPaused))
    }

    @Test("reducedAccuracyFewFixesPerHour: an hour of 1 Hz fixes yields 4, each at 2500 m")
    func reducedAccuracyFewFixesPerHour() {
        var timeline = Self.lockedTimeline(
            .authorizedAlways,
            options: LocationUpdateOptions(allowsBackgroundLocationUpdates: true, pausesLocationUpdatesAutomatically: false),
            configuration: Setup.authorized(.authorizedAlways, precise: false))
        var delivered: [Fix] = []
        for second in stride(from: 20.0, to: 3620, by: 1) { delivered += timeline.record(second, north: second).deliveries }
        #expect(delivered.count == 4)
        #expect(delivered.allSatisfy { $0.horizontalAccuracy == .meters(2500) })
        #expect(delivered.map { $0.timestamp.seconds(since: timeline.start) } == [20, 920, 1820, 2720])
    }

    @Test("reducedAccuracyDisplacedPosition: reduced fixes sit 1-20 km from the truth, the same for the same seed")
    func reducedAccuracyDisplacedPosition() {
        func deliveries(seed: UInt64) -> [Fix] {
            var configuration = Setup.authorized(.authorizedAlways, precise: false)
            configuration.seed = seed
            var timeline = Self.lockedTimeline(
                .authorizedAlways,
                options: LocationUpdateOptions(allowsBackgroundLocationUpdates: true, pausesLocationUpdatesAutomatically: false),
                configuration: configuration)
            var fixes: [Fix] = []
            for second in stride(from: 20.0, to: 7220, by: 10) { fixes += timeline.record(second, north: 0).deliveries }
            return fixes
        }
        let first = deliveries(seed: 7)
        #expect(first.count == 8)
        for fix in first {
            let offset = Geodesy.distanceMeters(DeviceRun.origin, Coordinate(latitude: fix.latitude, longitude: fix.longitude))
            #expect((1000...20000).contains(offset))
        }
        #expect(first == deliveries(seed: 7))
        #expect(first != deliveries(seed: 8))
    }
}
