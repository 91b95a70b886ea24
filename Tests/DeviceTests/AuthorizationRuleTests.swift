import Device
import Testing

/// One test per authorization and prompt rule, named after the rule (`DeviceRule`).
@Suite("Device rules: authorization and prompts")
struct AuthorizationRuleTests {
    @Test("servicesOffReportsDenied: Location Services off reads denied and drops fixes")
    func servicesOffReportsDenied() {
        var timeline = DeviceRun.testing(Setup.authorized(.authorizedAlways))
        timeline.at(0, .user(.launchedApp))
        timeline.at(0, .app(.startedLocationUpdates(LocationUpdateOptions())))
        let actions = timeline.at(1, .user(.changedSettings(.setLocationServices(false))))
        #expect(actions == [.authorizationChanged(.denied, .fullAccuracy)])
        #expect(timeline.device.authorization.state.status == .denied)
        #expect(timeline.record(2).drops == [.servicesOffReportsDenied])
    }

    @Test("servicesOnRestoresPreviousState: switching Location Services back on restores the app's grant")
    func servicesOnRestoresPreviousState() {
        var timeline = DeviceRun.testing(Setup.authorized(.authorizedAlways))
        timeline.at(0, .user(.launchedApp))
        timeline.at(1, .user(.changedSettings(.setLocationServices(false))))
        let actions = timeline.at(2, .user(.changedSettings(.setLocationServices(true))))
        #expect(actions == [.authorizationChanged(.authorizedAlways, .fullAccuracy)])
    }

    @Test("restrictedCannotChange: no request or Settings change moves restricted")
    func restrictedCannotChange() {
        var timeline = DeviceRun.testing(Setup.authorized(.restricted))
        timeline.at(0, .user(.launchedApp))
        #expect(timeline.at(1, .app(.requestedWhenInUse)) == [.promptSuppressed(.location, .restrictedCannotChange)])
        #expect(timeline.at(2, .app(.requestedAlways)) == [.promptSuppressed(.locationForAlways, .restrictedCannotChange)])
        #expect(timeline.at(3, .user(.changedSettings(.setAlways))).isEmpty)
        #expect(timeline.device.authorization.state.status == .restricted)
    }

    @Test("promptsOnlyInForeground: a request from the background shows nothing")
    func promptsOnlyInForeground() {
        var timeline = DeviceRun.testing()
        timeline.at(0, .user(.launchedApp))
        timeline.at(1, .user(.movedAppToBackground))
        #expect(timeline.at(2, .app(.requestedWhenInUse)) == [.promptSuppressed(.location, .promptsOnlyInForeground)])
        #expect(timeline.device.authorization.state.status == .notDetermined)
    }

    @Test("onePromptAtATime: a second request while a prompt is on screen shows nothing")
    func onePromptAtATime() {
        var timeline = DeviceRun.testing(user: Setup.user([:]))
        timeline.at(0, .user(.launchedApp))
        #expect(timeline.at(1, .app(.requestedWhenInUse)) == [.promptShown(.location)])
        #expect(timeline.at(2, .app(.startedMotionUpdates)) == [.promptSuppressed(.motion, .onePromptAtATime)])
    }

    @Test("missingUsageKeyIgnoresRequest: without the usage description no prompt and no change")
    func missingUsageKeyIgnoresRequest() {
        var plist = InfoPlist()
        plist.hasWhenInUseUsageDescription = false
        var configuration = Device.Configuration()
        configuration.infoPlist = plist
        var timeline = DeviceRun.testing(configuration)
        timeline.at(0, .user(.launchedApp))
        #expect(timeline.at(1, .app(.requestedWhenInUse)) == [.promptSuppressed(.location, .missingUsageKeyIgnoresRequest)])
        var alwaysOnly = InfoPlist()
        alwaysOnly.hasAlwaysAndWhenInUseUsageDescription = false
        configuration.infoPlist = alwaysOnly
        var second = DeviceRun.testing(configuration)
        second.at(0, .user(.launchedApp))
        #expect(second.at(1, .app(.requestedAlways)) == [.promptSuppressed(.locationForAlways, .missingUsageKeyIgnoresRequest)])
        #expect(second.device.authorization.state.status == .notDetermined)
    }

    @Test("whenInUseRequestOnlyFromNotDetermined: a When-In-Use request after a grant does nothing")
    func whenInUseRequestOnlyFromNotDetermined() {
        var timeline = DeviceRun.testing(Setup.authorized(.authorizedWhenInUse))
        timeline.at(0, .user(.launchedApp))
        #expect(
            timeline.at(1, .app(.requestedWhenInUse)) == [
                .promptSuppressed(.location, .whenInUseRequestOnlyFromNotDetermined)
            ])
    }

    @Test("dontAllowIsFinal: after Don't Allow no request prompts again")
    func dontAllowIsFinal() {
        var timeline = DeviceRun.testing(user: Setup.user([.location: [.answer(.dontAllow, afterSeconds: 1)]]))
        timeline.at(0, .user(.launchedApp))
        timeline.at(0, .app(.requestedWhenInUse))
        timeline.advance(to: 1)
        #expect(timeline.device.authorization.state.status == .denied)
        #expect(timeline.at(5, .app(.requestedWhenInUse)) == [.promptSuppressed(.location, .dontAllowIsFinal)])
        #expect(timeline.at(6, .app(.requestedAlways)) == [.promptSuppressed(.locationForAlways, .dontAllowIsFinal)])
    }

    @Test("alwaysRequestOncePerInstall: the Always prompt is never shown twice")
    func alwaysRequestOncePerInstall() {
        var timeline = DeviceRun.testing(
            Setup.authorized(.authorizedWhenInUse),
            user: Setup.user([.upgrade: [.answer(.keepWhileUsing, afterSeconds: 1)]]))
        timeline.at(0, .user(.launchedApp))
        #expect(timeline.at(1, .app(.requestedAlways)) == [.promptShown(.alwaysUpgrade)])
        timeline.advance(to: 5)
        #expect(timeline.at(10, .app(.requestedAlways)) == [.promptSuppressed(.alwaysUpgrade, .alwaysRequestOncePerInstall)])
        let shown = timeline.device.promptLog.filter { $0.outcome == .shown }
        #expect(shown.count == 1)
    }

    @Test("alwaysUpgradeFromWhenInUse: Change to Always Allow calls back; Keep Only While Using does not")
    func alwaysUpgradeFromWhenInUse() {
        var upgrade = DeviceRun.testing(Setup.authorized(.authorizedWhenInUse), user: Setup.user([:]))
        upgrade.at(0, .user(.launchedApp))
        upgrade.at(1, .app(.requestedAlways))
        #expect(upgrade.at(3, .user(.answeredPrompt(.changeToAlways))) == [.authorizationChanged(.authorizedAlways, .fullAccuracy)])
        var keep = DeviceRun.testing(Setup.authorized(.authorizedWhenInUse), user: Setup.user([:]))
        keep.at(0, .user(.launchedApp))
        keep.at(1, .app(.requestedAlways))
        #expect(keep.at(3, .user(.answeredPrompt(.keepWhileUsing))).isEmpty)
        #expect(keep.device.authorization.state.status == .authorizedWhenInUse)
    }

    @Test("firstAlwaysRequestFollowsProfile: current iOS settles on While Using; ios13 reports provisional Always")
    func firstAlwaysRequestFollowsProfile() {
        var current = DeviceRun.testing(user: Setup.user([:]))
        current.at(0, .user(.launchedApp))
        #expect(current.at(1, .app(.requestedAlways)) == [.promptShown(.locationForAlways)])
        #expect(
            current.at(2, .user(.answeredPrompt(.allowWhileUsing(precise: true))))
                == [.authorizationChanged(.authorizedWhenInUse, .fullAccuracy)])
        var configuration = Device.Configuration()
        configuration.parameters.osProfile = .ios13
        var ios13 = DeviceRun.testing(configuration, user: Setup.user([:]))
        ios13.at(0, .user(.launchedApp))
        ios13.at(1, .app(.requestedAlways))
        #expect(
            ios13.at(2, .user(.answeredPrompt(.allowWhileUsing(precise: true))))
                == [.authorizationChanged(.authorizedAlways, .fullAccuracy)])
        #expect(ios13.device.authorization.state.isProvisionalAlways)
    }

    @Test("deferredUpgradePrompt: a background region event raises the upgrade prompt once")
    func deferredUpgradePrompt() {
        var configuration = Device.Configuration()
        configuration.parameters = Setup.immediateRegions
        var timeline = DeviceRun.testing(
            configuration, user: Setup.user([.location: [.answer(.allowWhileUsing(precise: true), afterSeconds: 1)]]))
        timeline.at(0, .user(.launchedApp))
        timeline.at(0, .app(.requestedAlways))
        timeline.advance(to: 2)
        timeline.record(3)
        timeline.at(4, .app(.startedMonitoring(MonitoredRegion(identifier: "home", center: DeviceRun.origin, radiusMeters: 100))))
        timeline.record(5)
        // Switched away, screen unlocked: the person can answer at once.
        timeline.at(10, .user(.movedAppToBackground))
        for second in stride(from: 100.0, through: 140, by: 1) { timeline.record(second, north: 1000) }
        let prompts = timeline.device.promptLog.filter { $0.kind == .deferredAlwaysUpgrade }
        #expect(prompts.count == 1)
        #expect(
            timeline.actions(from: 100, to: 140).contains(
                .regionEventDropped(identifier: "home", .exit, .deferredUpgradeHoldsTriggeringEvent)))
        for second in stride(from: 200.0, through: 240, by: 1) { timeline.record(second, north: 0) }
        #expect(timeline.device.promptLog.filter { $0.kind == .deferredAlwaysUpgrade }.count == 1)
    }

    @Test("allowOnceIgnoresAlwaysRequests: Always requests do nothing while Allow Once holds")
    func allowOnceIgnoresAlwaysRequests() {
        var timeline = DeviceRun.testing(user: Setup.user([.location: [.answer(.allowOnce(precise: true), afterSeconds: 1)]]))
        timeline.at(0, .user(.launchedApp))
        timeline.at(0, .app(.requestedWhenInUse))
        timeline.advance(to: 2)
        #expect(timeline.at(3, .app(.requestedAlways)) == [.promptSuppressed(.alwaysUpgrade, .allowOnceIgnoresAlwaysRequests)])
    }

    @Test("allowOnceLapsesWhenNotInUse: Allow Once still holds at 69 s after locking and lapses at the cutoff")
    func allowOnceLapsesWhenNotInUse() {
        var timeline = DeviceRun.testing(user: Setup.user([.location: [.answer(.allowOnce(precise: true), afterSeconds: 1)]]))
        timeline.at(0, .user(.launchedApp))
        timeline.at(0, .app(.requestedWhenInUse))
        timeline.advance(to: 2)
        timeline.at(10, .user(.lockedScreen))
        timeline.advance(to: 79)
        #expect(timeline.device.authorization.state.status == .authorizedWhenInUse)
        timeline.advance(to: 80)
        #expect(timeline.device.authorization.state.status == .notDetermined)
        #expect(timeline.actions(from: 80, to: 80) == [.authorizationChanged(.notDetermined, .fullAccuracy)])
        // A force-quit ends the use at once.
        var quit = DeviceRun.testing(user: Setup.user([.location: [.answer(.allowOnce(precise: true), afterSeconds: 1)]]))
        quit.at(0, .user(.launchedApp))
        quit.at(0, .app(.requestedWhenInUse))
        quit.advance(to: 2)
        #expect(
            quit.at(5, .user(.forceQuitApp)) == [
                .appTerminated(.forceQuitStopsEverything), .authorizationChanged(.notDetermined, .fullAccuracy),
            ])
    }

    @Test("defaultAccuracyReduced: with the key, an untouched Precise switch gives reduced accuracy")
    func defaultAccuracyReduced() {
        var plist = InfoPlist()
        plist.defaultAccuracyReduced = true
        var configuration = Device.Configuration()
        configuration.infoPlist = plist
        var timeline = DeviceRun.testing(
            configuration, user: Setup.user([.location: [.answer(.allowWhileUsing(precise: nil), afterSeconds: 1)]]))
        timeline.at(0, .user(.launchedApp))
        timeline.at(0, .app(.requestedWhenInUse))
        timeline.advance(to: 1)
        #expect(timeline.device.authorization.state.accuracy == .reducedAccuracy)
    }

    @Test("temporaryFullAccuracyNeedsPurposeKey: an undeclared purpose gets no prompt and no callback")
    func temporaryFullAccuracyNeedsPurposeKey() {
        var timeline = DeviceRun.testing(Setup.authorized(.authorizedWhenInUse, precise: false))
        timeline.at(0, .user(.launchedApp))
        #expect(
            timeline.at(1, .app(.requestedTemporaryFullAccuracy(purpose: "Delivery"))) == [
                .promptSuppressed(.temporaryFullAccuracy(purpose: "Delivery"), .temporaryFullAccuracyNeedsPurposeKey)
            ])
    }

    @Test("temporaryFullAccuracyFailsInBackground: from the background the request fails")
    func temporaryFullAccuracyFailsInBackground() {
        var plist = InfoPlist()
        plist.temporaryFullAccuracyPurposes = ["Delivery"]
        var timeline = DeviceRun.testing(Setup.authorized(.authorizedAlways, precise: false, infoPlist: plist))
        timeline.at(0, .user(.launchedApp))
        timeline.at(1, .user(.movedAppToBackground))
        timeline.at(2, .app(.startedLocationUpdates(LocationUpdateOptions(allowsBackgroundLocationUpdates: true))))
        #expect(
            timeline.at(3, .app(.requestedTemporaryFullAccuracy(purpose: "Delivery"))) == [
                .promptSuppressed(.temporaryFullAccuracy(purpose: "Delivery"), .temporaryFullAccuracyFailsInBackground),
                .temporaryFullAccuracyCompleted(granted: false),
            ])
    }

    @Test("temporaryFullAccuracyLastsUntilRelaunch: the grant ends when the app is launched again")
    func temporaryFullAccuracyLastsUntilRelaunch() {
        var plist = InfoPlist()
        plist.temporaryFullAccuracyPurposes = ["Delivery"]
        var timeline = DeviceRun.testing(Setup.authorized(.authorizedWhenInUse, precise: false, infoPlist: plist))
        timeline.at(0, .user(.launchedApp))
        timeline.at(1, .app(.requestedTemporaryFullAccuracy(purpose: "Delivery")))
        timeline.advance(to: 5)
        #expect(timeline.device.authorization.state.accuracy == .fullAccuracy)
        timeline.at(10, .user(.forceQuitApp))
        #expect(timeline.device.authorization.state.accuracy == .fullAccuracy)
        let relaunch = timeline.at(20, .user(.launchedApp))
        #expect(relaunch.contains(.authorizationChanged(.authorizedWhenInUse, .reducedAccuracy)))
    }

    @Test("temporaryFullAccuracyNotNeededWhenPrecise: an app with full accuracy completes at once, no prompt")
    func temporaryFullAccuracyNotNeededWhenPrecise() {
        var plist = InfoPlist()
        plist.temporaryFullAccuracyPurposes = ["Delivery"]
        var timeline = DeviceRun.testing(Setup.authorized(.authorizedWhenInUse, infoPlist: plist))
        timeline.at(0, .user(.launchedApp))
        #expect(
            timeline.at(1, .app(.requestedTemporaryFullAccuracy(purpose: "Delivery"))) == [
                .promptSuppressed(.temporaryFullAccuracy(purpose: "Delivery"), .temporaryFullAccuracyNotNeededWhenPrecise),
                .temporaryFullAccuracyCompleted(granted: true),
            ])
    }

    @Test("motionRequestPrompts: the first motion request prompts; the answer sets the status")
    func motionRequestPrompts() {
        var timeline = DeviceRun.testing(user: Setup.user([.motion: [.answer(.deny, afterSeconds: 2)]]))
        timeline.at(0, .user(.launchedApp))
        #expect(timeline.at(1, .app(.startedMotionUpdates)) == [.promptShown(.motion)])
        timeline.advance(to: 3)
        #expect(timeline.device.authorization.state.motionStatus == .denied)
        #expect(timeline.at(4, .app(.startedMotionUpdates)) == [.promptSuppressed(.motion, .motionRequestPrompts)])
    }

    @Test("motionMissingUsageKeyCrashes: the motion API without its usage key terminates the app")
    func motionMissingUsageKeyCrashes() {
        var plist = InfoPlist()
        plist.hasMotionUsageDescription = false
        var configuration = Device.Configuration()
        configuration.infoPlist = plist
        var timeline = DeviceRun.testing(configuration)
        timeline.at(0, .user(.launchedApp))
        #expect(timeline.at(1, .app(.startedMotionUpdates)) == [.appTerminated(.motionMissingUsageKeyCrashes)])
        #expect(timeline.device.lifecycle.phase == .terminatedBySystem)
    }

    @Test("motionUnavailableWithoutHardware: no prompt and no samples without the coprocessor")
    func motionUnavailableWithoutHardware() {
        var configuration = Device.Configuration()
        configuration.authorization.isMotionAvailable = false
        var timeline = DeviceRun.testing(configuration)
        timeline.at(0, .user(.launchedApp))
        #expect(timeline.at(1, .app(.startedMotionUpdates)) == [.promptSuppressed(.motion, .motionUnavailableWithoutHardware)])
        let sample = MotionSample(timestamp: timeline.time(2), activity: .walking, confidence: .high)
        #expect(timeline.at(2, .sensor(.motionSampleRecorded(sample))) == [.dropMotion(.motionUnavailableWithoutHardware)])
    }

    @Test("bluetoothPromptsOnCentralManager: creating a central manager prompts once")
    func bluetoothPromptsOnCentralManager() {
        var timeline = DeviceRun.testing()
        timeline.at(0, .user(.launchedApp))
        #expect(timeline.at(1, .app(.createdCentralManager)) == [.promptShown(.bluetooth)])
        timeline.advance(to: 5)
        #expect(timeline.device.authorization.state.bluetoothStatus == .allowedAlways)
        #expect(timeline.at(6, .app(.createdCentralManager)) == [.promptSuppressed(.bluetooth, .bluetoothPromptsOnCentralManager)])
    }
}

import SimulationCore
import Traces
