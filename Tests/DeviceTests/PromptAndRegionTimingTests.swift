import Device
import Geometry
import SimulationCore
import Testing
import Traces

/// Issue 16 §2: when the deferred upgrade prompt appears, when the one Always request comes
/// back, when Allow Once lapses, how late region events arrive, and reduced accuracy on every
/// service. Each test checks its rule at the boundary.
@Suite("Device rules: prompt timing, Allow Once, region latency, reduced services")
struct PromptAndRegionTimingTests {
    static let home = MonitoredRegion(identifier: "home", center: DeviceRun.origin, radiusMeters: 100)

    static var immediateRegions: DeviceParameters { Setup.immediateRegions }

    /// A fresh install that asks for Always first and is allowed While Using (current profile),
    /// then monitors a region and locks the screen at 10 s; the person gives `upgrade` to the
    /// upgrade prompt.
    static func provisionalTimeline(
        profile: OSBehaviourProfile = .current, upgrade: PromptAnswer = .changeToAlways
    ) -> DeviceRun {
        var configuration = Device.Configuration()
        configuration.parameters = immediateRegions
        configuration.parameters.osProfile = profile
        var timeline = DeviceRun.testing(
            configuration,
            user: Setup.user([
                .location: [.answer(.allowWhileUsing(precise: true), afterSeconds: 1)],
                .upgrade: [.answer(upgrade, afterSeconds: 2)],
            ]))
        timeline.at(0, .user(.launchedApp))
        timeline.at(0, .app(.requestedAlways))
        timeline.advance(to: 2)
        timeline.record(3)
        timeline.at(4, .app(.startedMonitoring(home)))
        timeline.record(5)
        timeline.at(10, .user(.lockedScreen))
        return timeline
    }

    static func deferredShown(_ timeline: DeviceRun) -> [PromptLogEntry] {
        timeline.device.promptLog.filter { $0.kind == .deferredAlwaysUpgrade && $0.outcome == .shown }
    }

    @Test("deferredUpgradePromptWaitsForUnlock: not shown on the locked screen; shown at the unlock and answered after it")
    func deferredUpgradePromptWaitsForUnlock() {
        var timeline = Self.provisionalTimeline()
        for second in stride(from: 100.0, through: 140, by: 1) { timeline.record(second, north: 1000) }
        #expect(
            timeline.actions(from: 100, to: 140).contains(
                .regionEventDropped(identifier: "home", .exit, .deferredUpgradeHoldsTriggeringEvent)))
        // Locked until 599 s: nobody can answer, so nothing is shown.
        timeline.advance(to: 599)
        #expect(Self.deferredShown(timeline).isEmpty)
        #expect(timeline.device.authorization.state.status == .authorizedWhenInUse)
        let unlock = timeline.at(600, .user(.unlockedScreen))
        #expect(unlock.contains(.promptShown(.deferredAlwaysUpgrade)))
        #expect(Self.deferredShown(timeline).map(\.time) == [timeline.time(600)])
        // The person's answer delay still applies: 2 s after the prompt appears.
        timeline.advance(to: 601)
        #expect(timeline.device.authorization.state.status == .authorizedWhenInUse)
        timeline.advance(to: 602)
        #expect(timeline.device.authorization.state.status == .authorizedAlways)
    }

    @Test("deferredUpgradeHoldsTriggeringEvent: Always granted 600 s after the event delivers it; 601 s does not")
    func deferredUpgradeHoldsTriggeringEvent() {
        // The exit is decided at 120 s; the person unlocks at `unlock` and answers 2 s later.
        func delivered(unlock: Double) -> [SimInstant] {
            var timeline = Self.provisionalTimeline()
            for second in stride(from: 100.0, through: 140, by: 1) { timeline.record(second, north: 1000) }
            timeline.at(unlock, .user(.unlockedScreen))
            timeline.advance(to: unlock + 5)
            #expect(timeline.device.authorization.state.status == .authorizedAlways)
            return timeline.log.filter { $0.action == .regionEvent(identifier: "home", .exit) }.map(\.time)
        }
        #expect(delivered(unlock: 718) == [DeviceRun.testing(Device.Configuration()).time(720)])
        #expect(delivered(unlock: 719).isEmpty)
        // Keep Only While Using discards it.
        var keep = Self.provisionalTimeline(upgrade: .keepWhileUsing)
        for second in stride(from: 100.0, through: 140, by: 1) { keep.record(second, north: 1000) }
        keep.at(200, .user(.unlockedScreen))
        keep.advance(to: 210)
        #expect(!keep.log.contains { $0.action == .regionEvent(identifier: "home", .exit) })
    }

    @Test("deferredUpgradePromptWaitsForUnlock: on an unlocked phone with the app in the background it shows at once")
    func deferredUpgradePromptShowsOnUnlockedPhone() {
        var configuration = Device.Configuration()
        configuration.parameters = Self.immediateRegions
        configuration.parameters.osProfile = .ios13
        var timeline = DeviceRun.testing(
            configuration, user: Setup.user([.location: [.answer(.allowWhileUsing(precise: true), afterSeconds: 1)]]))
        timeline.at(0, .user(.launchedApp))
        timeline.at(0, .app(.requestedAlways))
        timeline.advance(to: 2)
        timeline.record(3)
        timeline.at(4, .app(.startedMonitoring(Self.home)))
        timeline.record(5)
        timeline.at(10, .user(.movedAppToBackground))
        for second in stride(from: 100.0, through: 119, by: 1) { timeline.record(second, north: 1000) }
        #expect(Self.deferredShown(timeline).isEmpty)
        #expect(timeline.record(120, north: 1000).contains(.promptShown(.deferredAlwaysUpgrade)))
        #expect(Self.deferredShown(timeline).count == 1)
    }

    @Test("alwaysRequestWhenAlwaysDoesNothing: an Always request under Always shows nothing and changes nothing")
    func alwaysRequestWhenAlwaysDoesNothing() {
        var timeline = DeviceRun.testing(Setup.authorized(.authorizedAlways))
        timeline.at(0, .user(.launchedApp))
        #expect(
            timeline.at(1, .app(.requestedAlways))
                == [.promptSuppressed(.locationForAlways, .alwaysRequestWhenAlwaysDoesNothing)])
        #expect(timeline.device.authorization.state.status == .authorizedAlways)
        // From When-In-Use the same request still prompts.
        var whenInUse = DeviceRun.testing(Setup.authorized(.authorizedWhenInUse), user: Setup.user([:]))
        whenInUse.at(0, .user(.launchedApp))
        #expect(whenInUse.at(1, .app(.requestedAlways)) == [.promptShown(.alwaysUpgrade)])
    }

    @Test("alwaysRequestResetsWhenNotDetermined: after Allow Once lapses the Always request prompts again; before, it does not")
    func alwaysRequestResetsAfterAllowOnce() {
        var timeline = DeviceRun.testing(
            user: Setup.user([.location: [.answer(.allowOnce(precise: true), afterSeconds: 1)]]))
        timeline.at(0, .user(.launchedApp))
        #expect(timeline.at(0, .app(.requestedAlways)) == [.promptShown(.locationForAlways)])
        timeline.advance(to: 2)
        #expect(timeline.device.authorization.state.isAllowOnce)
        timeline.at(10, .user(.lockedScreen))
        // Still in use at 79 s: the request is ignored for the temporary grant.
        timeline.at(79, .user(.launchedApp))
        #expect(
            timeline.at(79, .app(.requestedAlways))
                == [.promptSuppressed(.alwaysUpgrade, .allowOnceIgnoresAlwaysRequests)])
        timeline.at(90, .user(.lockedScreen))
        timeline.advance(to: 160)
        #expect(timeline.device.authorization.state.status == .notDetermined)
        timeline.at(200, .user(.launchedApp))
        #expect(timeline.at(200, .app(.requestedAlways)) == [.promptShown(.locationForAlways)])
    }

    @Test("alwaysRequestResetsWhenNotDetermined: Ask Next Time in Settings makes the used Always request available again")
    func alwaysRequestResetsAfterAskNextTime() {
        var timeline = DeviceRun.testing(
            Setup.authorized(.authorizedWhenInUse),
            user: Setup.user([.upgrade: [.answer(.keepWhileUsing, afterSeconds: 1)], .location: []]))
        timeline.at(0, .user(.launchedApp))
        #expect(timeline.at(1, .app(.requestedAlways)) == [.promptShown(.alwaysUpgrade)])
        timeline.advance(to: 3)
        #expect(
            timeline.at(4, .app(.requestedAlways)) == [.promptSuppressed(.alwaysUpgrade, .alwaysRequestOncePerInstall)])
        timeline.at(5, .user(.changedSettings(.setAskNextTime)))
        #expect(timeline.at(6, .app(.requestedAlways)) == [.promptShown(.locationForAlways)])
    }

    static func allowOnceLocked(lapse: Double) -> DeviceRun {
        var configuration = Device.Configuration()
        configuration.parameters.allowOnceLapseSeconds = lapse
        var timeline = DeviceRun.testing(
            configuration, user: Setup.user([.location: [.answer(.allowOnce(precise: true), afterSeconds: 1)]]))
        timeline.at(0, .user(.launchedApp))
        timeline.at(0, .app(.requestedWhenInUse))
        timeline.advance(to: 2)
        timeline.at(10, .user(.lockedScreen))
        return timeline
    }

    @Test("allowOnceLapsesWhenNotInUse: with a 300 s lapse delay Allow Once holds until 379 s and lapses at 380 s")
    func allowOnceLapseDelay() {
        var timeline = Self.allowOnceLocked(lapse: 300)
        timeline.advance(to: 379)
        #expect(timeline.device.authorization.state.status == .authorizedWhenInUse)
        timeline.advance(to: 380)
        #expect(timeline.device.authorization.state.status == .notDetermined)
        #expect(timeline.actions(from: 380, to: 380) == [.authorizationChanged(.notDetermined, .fullAccuracy)])
        // Coming back into use within the delay keeps the grant; a force-quit ends it at once.
        var back = Self.allowOnceLocked(lapse: 300)
        back.at(200, .user(.unlockedScreen))
        back.advance(to: 500)
        #expect(back.device.authorization.state.isAllowOnce)
        #expect(
            back.at(501, .user(.forceQuitApp)) == [
                .appTerminated(.forceQuitStopsEverything), .authorizationChanged(.notDetermined, .fullAccuracy),
            ])
    }

    @Test("regionEventLatency: a crossing accepted at 220 s with a 60 s latency arrives at 280 s, not at 279 s")
    func regionEventLatency() {
        func exitTimes(_ configuration: Device.Configuration, lastFix: Double, until: Double) -> [Double] {
            var timeline = DeviceRun.testing(configuration)
            timeline.at(0, .user(.launchedApp))
            timeline.at(1, .app(.startedMonitoring(Self.home)))
            timeline.record(2, north: 0)
            for second in stride(from: 200.0, through: lastFix, by: 1) { timeline.record(second, north: 350) }
            timeline.advance(to: until)
            return timeline.log.filter { $0.action == .regionEvent(identifier: "home", .exit) }
                .map { $0.time.seconds(since: timeline.start) }
        }
        var fixed = Setup.authorized(.authorizedAlways)
        fixed.parameters.regionLatencyMinimumSeconds = 60
        fixed.parameters.regionLatencyMaximumSeconds = 60
        #expect(exitTimes(fixed, lastFix: 279, until: 279.9).isEmpty)
        #expect(exitTimes(fixed, lastFix: 279, until: 280) == [280])
        // A timer delivers it even when no fix follows (a sparse trace).
        #expect(exitTimes(fixed, lastFix: 220, until: 400) == [280])
        // The default draws from the seed: within 0-15 s after the dwell, the same for the same seed.
        var seeded = Setup.authorized(.authorizedAlways)
        seeded.seed = 3
        let first = exitTimes(seeded, lastFix: 220, until: 600)
        #expect(first.count == 1 && first.allSatisfy { (220...235).contains($0) }, "\(first)")
        #expect(first == exitTimes(seeded, lastFix: 220, until: 600))
    }

    @Test("regionHysteresis: an entry needs the cushion inside the boundary, at most half the effective radius")
    func regionEntryCushion() {
        func enters(radius: Double, at distance: Double) -> Bool {
            var timeline = DeviceRun.testing(Setup.authorized(.authorizedAlways, parameters: Self.immediateRegions))
            timeline.at(0, .user(.launchedApp))
            let region = MonitoredRegion(identifier: "r", center: DeviceRun.origin, radiusMeters: radius)
            timeline.at(1, .app(.startedMonitoring(region)))
            timeline.record(2, north: radius + 1000)
            for second in stride(from: 10.0, through: 40, by: 1) { timeline.record(second, north: distance) }
            return timeline.log.contains { $0.action == .regionEvent(identifier: "r", .enter) }
        }
        // 500 m region: 200 m cushion inside the boundary.
        #expect(!enters(radius: 500, at: 310))
        #expect(enters(radius: 500, at: 290))
        // 100 m region acts as 200 m; half of that is the deepest an entry needs.
        #expect(!enters(radius: 100, at: 110))
        #expect(enters(radius: 100, at: 90))
    }

    @Test("reducedAccuracyAppliesToEveryService: significant changes are coarse, with the standard updates' held displacement")
    func reducedSignificantChanges() {
        var timeline = DeviceRun.testing(
            Setup.authorized(.authorizedAlways, precise: false, parameters: Setup.fixedSignificantChanges))
        timeline.at(0, .user(.launchedApp))
        timeline.at(1, .app(.startedSignificantChanges))
        func changes(_ actions: [DeviceAction]) -> [Fix] {
            actions.compactMap { if case .significantChange(let fix) = $0 { fix } else { nil } }
        }
        let first = changes(timeline.record(2, north: 0))
        #expect(first.count == 1)
        #expect(first.allSatisfy { $0.horizontalAccuracy == .meters(2500) })
        for fix in first {
            let offset = Geodesy.distanceMeters(
                DeviceRun.origin, Coordinate(latitude: fix.latitude, longitude: fix.longitude))
            #expect((1000...20000).contains(offset))
        }
        // 700 m and 398 s later: a significant change, but inside the 900 s reduced period.
        // 700 m and 398 s later: the next event, coarse, with the same displacement (held 900 s),
        // so it sits 700 m from the first.
        let second = changes(timeline.record(400, north: 700))
        #expect(second.count == 1)
        #expect(second.allSatisfy { $0.horizontalAccuracy == .meters(2500) })
        if let first = first.first, let second = second.first {
            let apart = Geodesy.distanceMeters(
                Coordinate(latitude: first.latitude, longitude: first.longitude),
                Coordinate(latitude: second.latitude, longitude: second.longitude))
            #expect(abs(apart - 700) < 5)
        }
        // Standard updates keep their own few-per-hour limit alongside.
        timeline.at(401, .app(.startedLocationUpdates(LocationUpdateOptions())))
        #expect(timeline.record(402, north: 700).deliveries.count == 1)
        #expect(timeline.record(403, north: 700).drops == [.reducedAccuracyFewFixesPerHour])
    }

    @Test("reducedAccuracyAppliesToEveryService: a visit under reduced accuracy is displaced and reports the coarse accuracy")
    func reducedVisits() {
        func arrival(precise: Bool) -> VisitEvent? {
            var timeline = DeviceRun.testing(Setup.authorized(.authorizedAlways, precise: precise))
            timeline.at(0, .user(.launchedApp))
            timeline.at(1, .app(.startedVisitMonitoring))
            timeline.record(2, north: 0)
            return timeline.record(302, north: 30).compactMap { if case .visit(let visit) = $0 { visit } else { nil } }
                .first
        }
        let precise = arrival(precise: true)
        #expect(precise.map { Geodesy.distanceMeters(DeviceRun.origin, $0.coordinate) < 1 } == true)
        #expect(precise?.reducedHorizontalAccuracyMeters == nil)
        let reduced = arrival(precise: false)
        #expect(reduced?.reducedHorizontalAccuracyMeters == 2500)
        if let reduced {
            #expect((1000...20000).contains(Geodesy.distanceMeters(DeviceRun.origin, reduced.coordinate)))
        }
    }
}
