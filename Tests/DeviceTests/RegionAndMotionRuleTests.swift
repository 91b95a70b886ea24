import Device
import Geometry
import SimulationCore
import Testing
import Traces

/// One test per region, significant-change and motion rule, named after the rule (`DeviceRule`).
@Suite("Device rules: regions, significant change and motion")
struct RegionAndMotionRuleTests {
    static func region(_ identifier: String, radius: Double = 100) -> MonitoredRegion {
        MonitoredRegion(identifier: identifier, center: DeviceRun.origin, radiusMeters: radius)
    }

    static func launched(_ configuration: Device.Configuration) -> DeviceRun {
        var timeline = DeviceRun.testing(configuration)
        timeline.at(0, .user(.launchedApp))
        return timeline
    }

    @Test("regionLimit: 20 regions register, the 21st fails, reusing an identifier replaces")
    func regionLimit() {
        var timeline = Self.launched(Setup.authorized(.authorizedAlways))
        for index in 0..<20 { #expect(timeline.at(1, .app(.startedMonitoring(Self.region("r\(index)")))).isEmpty) }
        #expect(timeline.at(2, .app(.startedMonitoring(Self.region("r20")))) == [.regionMonitoringFailed(identifier: "r20", .regionLimit)])
        #expect(timeline.at(3, .app(.startedMonitoring(Self.region("r5", radius: 300)))).isEmpty)
        #expect(timeline.device.monitoredRegionIdentifiers.count == 20)
    }

    @Test("regionRequiresAuthorization: Always, or When-In-Use in use; otherwise refused")
    func regionRequiresAuthorization() {
        var denied = Self.launched(Setup.authorized(.denied))
        #expect(
            denied.at(1, .app(.startedMonitoring(Self.region("a")))) == [
                .regionMonitoringFailed(identifier: "a", .regionRequiresAuthorization)
            ])
        var whenInUse = Self.launched(Setup.authorized(.authorizedWhenInUse))
        #expect(whenInUse.at(1, .app(.startedMonitoring(Self.region("a")))).isEmpty)
        // A session keeps the app running past the cutoff; once it ends the app is not in use.
        whenInUse.at(1, .app(.startedBackgroundSession))
        whenInUse.at(2, .user(.movedAppToBackground))
        whenInUse.at(100, .app(.endedBackgroundSession))
        #expect(!whenInUse.device.isInUse(at: whenInUse.time(100)))
        #expect(
            whenInUse.at(100, .app(.startedMonitoring(Self.region("b"))))
                == [.regionMonitoringFailed(identifier: "b", .regionRequiresAuthorization)])
    }

    @Test("regionUnavailableWithReducedAccuracy: with Precise off regions are refused")
    func regionUnavailableWithReducedAccuracy() {
        var timeline = Self.launched(Setup.authorized(.authorizedAlways, precise: false))
        #expect(
            timeline.at(1, .app(.startedMonitoring(Self.region("a"))))
                == [.regionMonitoringFailed(identifier: "a", .regionUnavailableWithReducedAccuracy)])
    }

    @Test("regionHysteresis: an exit needs the radius plus the 50 m cushion held for 20 s")
    func regionHysteresis() {
        var timeline = Self.launched(Setup.authorized(.authorizedAlways, parameters: Setup.immediateRegions))
        timeline.at(1, .app(.startedMonitoring(Self.region("home"))))
        timeline.record(2, north: 0)
        // 140 m: past the 100 m boundary but inside radius + cushion (150 m): no exit.
        for second in stride(from: 10.0, through: 100, by: 1) { timeline.record(second, north: 140) }
        #expect(!timeline.log.contains { if case .regionEvent = $0.action { true } else { false } })
        for second in stride(from: 200.0, through: 219, by: 1) { timeline.record(second, north: 160) }
        #expect(!timeline.actions(from: 200, to: 219).contains(.regionEvent(identifier: "home", .exit)))
        #expect(timeline.record(220, north: 160).contains(.regionEvent(identifier: "home", .exit)))
        // Entry: back within the effective radius (at least 200 m) less the cushion, at most half
        // of it (100 m), for 20 s; 150 m is not deep enough.
        for second in stride(from: 300.0, through: 340, by: 1) { timeline.record(second, north: 150) }
        #expect(!timeline.actions(from: 300, to: 340).contains(.regionEvent(identifier: "home", .enter)))
        for second in stride(from: 400.0, through: 419, by: 1) { timeline.record(second, north: 90) }
        #expect(timeline.record(420, north: 90).contains(.regionEvent(identifier: "home", .enter)))
    }

    @Test("regionEventsWhenNotInUseNeedAlways: a When-In-Use app not in use misses the event; Always gets it")
    func regionEventsWhenNotInUseNeedAlways() {
        func exitActions(_ status: AuthorizationStatus) -> [DeviceAction] {
            var timeline = Self.launched(Setup.authorized(status, parameters: Setup.immediateRegions))
            timeline.at(1, .app(.startedMonitoring(Self.region("home"))))
            timeline.record(2, north: 0)
            timeline.at(3, .user(.lockedScreen))
            for second in stride(from: 200.0, through: 230, by: 1) { timeline.record(second, north: 400) }
            return timeline.actions(from: 200, to: 230)
        }
        #expect(
            exitActions(.authorizedWhenInUse).contains(
                .regionEventDropped(identifier: "home", .exit, .regionEventsWhenNotInUseNeedAlways)))
        #expect(exitActions(.authorizedAlways).contains(.regionEvent(identifier: "home", .exit)))
    }

    @Test("significantChangeService: the first fix, then only after 500 m and 5 minutes")
    func significantChangeService() {
        var timeline = Self.launched(Setup.authorized(.authorizedAlways, parameters: Setup.fixedSignificantChanges))
        timeline.at(1, .app(.startedSignificantChanges))
        func hasEvent(_ actions: [DeviceAction]) -> Bool {
            actions.contains { if case .significantChange = $0 { true } else { false } }
        }
        #expect(hasEvent(timeline.record(2, north: 0)))
        #expect(!hasEvent(timeline.record(100, north: 400)))
        #expect(!hasEvent(timeline.record(200, north: 700)))
        #expect(hasEvent(timeline.record(302, north: 700)))
        #expect(!hasEvent(timeline.record(700, north: 1100)))
    }

    @Test("significantChangeService: starting it again while it runs keeps its baseline (a relaunched app re-subscribes)")
    func significantChangeRestartKeepsBaseline() {
        var timeline = Self.launched(Setup.authorized(.authorizedAlways))
        timeline.at(1, .app(.startedSignificantChanges))
        func hasEvent(_ actions: [DeviceAction]) -> Bool {
            actions.contains { if case .significantChange = $0 { true } else { false } }
        }
        #expect(hasEvent(timeline.record(2, north: 0)))
        timeline.at(50, .app(.startedSignificantChanges))
        // Still measured from the event at 2 s: too near and too soon.
        #expect(!hasEvent(timeline.record(100, north: 400)))
        // Stopped and started, it is a new service: the next position is an event.
        timeline.at(110, .app(.stoppedSignificantChanges))
        timeline.at(111, .app(.startedSignificantChanges))
        #expect(hasEvent(timeline.record(112, north: 400)))
    }

    @Test("visitService: an arrival after 5 minutes in one place, a departure on leaving, and a relaunch under Always")
    func visitService() {
        var timeline = Self.launched(Setup.authorized(.authorizedAlways))
        timeline.at(1, .app(.startedVisitMonitoring))
        func visits(_ actions: [DeviceAction]) -> [VisitEvent] {
            actions.compactMap { if case .visit(let visit) = $0 { visit } else { nil } }
        }
        timeline.record(2, north: 0)
        #expect(visits(timeline.record(301, north: 30)).isEmpty)
        let arrival = visits(timeline.record(302, north: 30))
        #expect(arrival.map(\.kind) == [.arrival])
        #expect(arrival.first?.arrival == timeline.time(2))
        timeline.at(400, .system(.terminatedApp))
        let departure = timeline.record(500, north: 1000)
        #expect(departure.contains(.appLaunched(.visit, inBackground: true)))
        #expect(visits(departure).map(\.kind) == [.departure])
        #expect(visits(departure).first?.departure == timeline.time(500))
    }

    @Test("motionDeliversRecordedActivity: recorded samples reach an authorized app, not a denied one")
    func motionDeliversRecordedActivity() {
        var configuration = Setup.authorized(.authorizedAlways)
        configuration.traceHasMotionSamples = true
        var timeline = Self.launched(configuration)
        timeline.at(1, .app(.startedMotionUpdates))
        let sample = MotionSample(timestamp: timeline.time(2), activity: .automotive, confidence: .high)
        #expect(timeline.at(2, .sensor(.motionSampleRecorded(sample))) == [.deliverMotion(sample)])
        timeline.at(3, .user(.changedSettings(.setMotion(false))))
        #expect(timeline.at(4, .sensor(.motionSampleRecorded(sample))) == [.dropMotion(.motionRequestPrompts)])
    }

    @Test("motionDerivedFromSpeed: without recorded motion, driving speed becomes a late, marked automotive sample")
    func motionDerivedFromSpeed() {
        var timeline = Self.launched(Setup.authorized(.authorizedAlways))
        timeline.at(1, .app(.startedMotionUpdates))
        var samples: [MotionSample] = []
        for second in stride(from: 10.0, through: 40, by: 1) {
            for action in timeline.record(second, north: (second - 10) * 15, speed: 15) {
                if case .deliverMotion(let sample) = action { samples.append(sample) }
            }
        }
        let first = samples.first
        #expect(first != nil)
        #expect(first?.activity == .automotive)
        #expect(first?.isDerived == true)
        let lag = first.map { $0.timestamp.seconds(since: timeline.time(10)) } ?? -1
        #expect(lag >= 2 && lag <= 10)
    }
}
