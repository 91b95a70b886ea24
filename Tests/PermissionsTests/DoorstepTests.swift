import Device
import Permissions
import SimulationCore
import Testing

/// Every rule and code example of the bucket requester's document (seed 000), one test each.
@Suite("Bucket requester (DoorstepAI)")
struct DoorstepTests {
    @Test("buckets: four, in declaration order, and all is the default whitelist")
    func buckets() {
        #expect(DoorstepPermission.all.map(\.rawValue) == ["locationWhenInUse", "locationAlways", "motionFitness", "bluetooth"])
    }

    @Test("from(wireName:): case-insensitive, nil for an unknown token")
    func wireNames() {
        #expect(DoorstepPermission.from(wireName: "LOCATIONALWAYS") == .locationAlways)
        #expect(DoorstepPermission.from(wireName: "motionfitness") == .motionFitness)
        #expect(DoorstepPermission.from(wireName: "camera") == nil)
    }

    @Test("states: the eight names shared with Android")
    func states() {
        #expect(
            DoorstepPermissionState.allCases.map(\.rawValue) == [
                "granted", "notDetermined", "whenInUseOnly", "denied", "permanentlyDenied", "restricted", "unavailable", "notDeclared",
            ])
    }

    @Test("check never prompts: not at launch, not repeatedly, not for a single bucket")
    func checkNeverPrompts() {
        let session = Sessions.make()
        for _ in 0..<3 { _ = DoorstepAI.checkPermissions(session) }
        _ = DoorstepAI.checkPermission(session, .bluetooth)
        _ = DoorstepAI.checkPermissionsJson(session)
        #expect(session.device.promptLog.isEmpty)
        #expect(DoorstepAI.checkPermissions(session).values.allSatisfy { $0.state == .notDetermined && $0.canRequest })
    }

    @Test("osStatus: raw evidence in iOS's words")
    func osStatus() {
        var session = Sessions.make(
            user: Sessions.user([.location: [Sessions.allowWhileUsing], .motion: [.answer(.allow, afterSeconds: 1)]]))
        DoorstepAI.requestPermissions(&session, [.locationWhenInUse, .motionFitness])
        #expect(DoorstepAI.checkPermission(session, .locationWhenInUse).osStatus == "authorizedWhenInUse,accuracy=full")
        #expect(DoorstepAI.checkPermission(session, .motionFitness).osStatus == "cmMotionActivity=3,cmSensorRecorder=3")
        let missing = Sessions.make { $0.infoPlist.hasMotionUsageDescription = false }
        #expect(DoorstepAI.checkPermission(missing, .motionFitness).osStatus == "missingInfoPlistKey(NSMotionUsageDescription)")
    }

    @Test("whenInUseOnly: reported only for locationAlways, and canRequest is false")
    func whenInUseOnly() {
        let session = Sessions.make { $0.authorization.storedStatus = .authorizedWhenInUse }
        let statuses = DoorstepAI.checkPermissions(session, [.locationWhenInUse, .locationAlways])
        #expect(statuses[.locationWhenInUse]?.state == .granted)
        #expect(statuses[.locationAlways]?.state == .whenInUseOnly)
        #expect(statuses[.locationAlways]?.canRequest == false)
    }

    @Test("denied is never reported on iOS: every refusal is permanentlyDenied")
    func permanentlyDenied() {
        var session = Sessions.make(
            user: Sessions.user([.location: [.answer(.dontAllow, afterSeconds: 1)], .motion: [.answer(.deny, afterSeconds: 1)]]))
        DoorstepAI.requestPermissions(&session, [.locationWhenInUse, .motionFitness])
        let statuses = DoorstepAI.checkPermissions(session)
        #expect(statuses[.locationWhenInUse]?.state == .permanentlyDenied)
        #expect(statuses[.motionFitness]?.state == .permanentlyDenied)
        #expect(!statuses.values.contains { $0.state == .denied })
    }

    @Test("notDeclared: a missing key is a build problem; for Bluetooth the requester declines to touch it")
    func notDeclared() {
        var session = Sessions.make { $0.infoPlist.hasBluetoothUsageDescription = false }
        let result = DoorstepAI.requestPermissions(&session, [.bluetooth])
        #expect(result.statuses[.bluetooth]?.state == .notDeclared)
        #expect(result.unavailable == [.bluetooth])
        #expect(result.deferred[.bluetooth]?.code == "notDeclared")
        #expect(session.device.promptLog.isEmpty)
        #expect(DoorstepAI.checkPermission(session, .bluetooth).osStatus == "missingInfoPlistKey(NSBluetoothAlwaysUsageDescription)")
    }

    @Test("unavailable: motion without the coprocessor is unavailable and never asked")
    func unavailable() {
        var session = Sessions.make { $0.authorization.isMotionAvailable = false }
        let result = DoorstepAI.requestPermissions(&session, [.motionFitness])
        #expect(result.statuses[.motionFitness]?.state == .unavailable)
        #expect(result.unavailable == [.motionFitness])
        #expect(result.requested.isEmpty)
    }

    @Test("checkPermissionsJson: exactly the document's shape, buckets in declaration order")
    func json() {
        let session = Sessions.make { $0.infoPlist.hasBluetoothUsageDescription = false }
        #expect(
            DoorstepAI.checkPermissionsJson(session, [.bluetooth, .locationWhenInUse]) == """
                {"locationWhenInUse":{"state":"notDetermined","canRequest":true,"os":"notDetermined,accuracy=full"},\
                "bluetooth":{"state":"notDeclared","canRequest":false,"os":"missingInfoPlistKey(NSBluetoothAlwaysUsageDescription)"}}
                """)
    }

    @Test("order: location, motion, bluetooth, one at a time and each awaited, whatever the array order")
    func order() {
        var session = Sessions.make()
        let result = DoorstepAI.requestPermissions(&session, [.bluetooth, .motionFitness, .locationWhenInUse])
        #expect(result.requested == [.locationWhenInUse, .motionFitness, .bluetooth])
        #expect(session.promptsShown == [.location, .motion, .bluetooth])
        let shownTimes = session.device.promptLog.filter { $0.outcome == .shown }.map { $0.time.seconds(since: session.start) }
        #expect(shownTimes == [0, 2, 4])  // each prompt after the previous answer (the agreeable user answers in 2 s)
    }

    @Test("one location prompt per call: locationAlways is the ask and locationWhenInUse folds into it")
    func foldedLocation() {
        var session = Sessions.make(user: Sessions.user([.location: [Sessions.allowWhileUsing]]))
        let result = DoorstepAI.requestPermissions(&session, [.locationWhenInUse, .locationAlways])
        #expect(result.requested == [.locationAlways])
        #expect(result.deferred[.locationWhenInUse]?.code == "foldedIntoLocationAlways")
        #expect(session.promptsShown == [.locationForAlways])
    }

    @Test("a first-time Always request commonly settles on whenInUseOnly: that is iOS, not a failure")
    func firstAlwaysSettlesOnWhenInUse() {
        var session = Sessions.make(user: Sessions.user([.location: [Sessions.allowWhileUsing]]))
        let result = DoorstepAI.requestPermissions(&session, [.locationAlways])
        #expect(result.statuses[.locationAlways]?.state == .whenInUseOnly)
        #expect(result.didRequest)
    }

    @Test("in flight: a second request is refused, every bucket deferred with which request runs and since when")
    func inFlight() {
        var session = Sessions.make(user: Sessions.user([.location: [.answer(.allowWhileUsing(precise: true), afterSeconds: 10)]]))
        let refusals = Collected<DoorstepPermissionRequestResult>()
        session.schedule(afterSeconds: 4) { session in
            DoorstepAI.requestPermissions(&session, [.motionFitness, .bluetooth]) { refusals.append($0) }
        }
        let first = DoorstepAI.requestPermissions(&session, [.locationWhenInUse])
        #expect(first.requested == [.locationWhenInUse])
        let refused = refusals.all.first
        #expect(refused?.requested == [])
        #expect(refused?.didRequest == false)
        #expect(refused?.deferred[.motionFitness]?.code == "authorizationRequestInProgress")
        #expect(
            refused?.deferred[.bluetooth]?.message
                == "another request ([locationWhenInUse]) has been in flight for 4 s; await its completion")
        #expect(session.promptsShown == [.location])
    }

    @Test("granted, unavailable and notDeclared buckets are never asked, even when forced")
    func neverAskSettled() {
        var session = Sessions.make {
            $0.authorization.storedStatus = .authorizedAlways
            $0.authorization.isMotionAvailable = false
            $0.infoPlist.hasBluetoothUsageDescription = false
        }
        let result = DoorstepAI.requestPermissions(&session, DoorstepPermission.all, onlyIfNotDetermined: false)
        #expect(result.requested.isEmpty)
        #expect(result.alreadyDetermined == [.locationAlways])
        #expect(result.unavailable == [.motionFitness, .bluetooth])
        #expect(session.device.promptLog.isEmpty)
    }

    @Test("onlyIfNotDetermined: answered buckets are left alone by default; a forced re-ask upgrades whenInUseOnly")
    func forcedReask() {
        var session = Sessions.make(user: Sessions.user([.upgrade: [.answer(.changeToAlways, afterSeconds: 5)]])) {
            $0.authorization.storedStatus = .authorizedWhenInUse
        }
        let polite = DoorstepAI.requestPermissions(&session, [.locationAlways])
        #expect(polite.requested.isEmpty)
        #expect(polite.alreadyDetermined == [.locationAlways])
        #expect(polite.deferred[.locationAlways]?.code == "whenInUseOnly")
        let forced = DoorstepAI.requestPermissions(&session, [.locationAlways], onlyIfNotDetermined: false)
        #expect(forced.requested == [.locationAlways])
        #expect(forced.statuses[.locationAlways]?.state == .granted)
    }

    @Test("a forced re-ask waits at most 25 s: Keep Only While Using leaves nothing to observe")
    func forcedReaskCap() {
        var session = Sessions.make(user: Sessions.user([.upgrade: [.neverAnswers]])) {
            $0.authorization.storedStatus = .authorizedWhenInUse
        }
        let start = session.now
        DoorstepAI.requestPermissions(&session, [.locationAlways], onlyIfNotDetermined: false)
        #expect(session.now.seconds(since: start) == 25)
    }

    @Test("permanentlyDenied shows no alert, forced or not: already answered")
    func permanentlyDeniedNoAlert() {
        var session = Sessions.make { $0.authorization.motionStatus = .denied }
        let result = DoorstepAI.requestPermissions(&session, [.motionFitness], onlyIfNotDetermined: false)
        #expect(result.requested.isEmpty)
        #expect(result.deferred[.motionFitness]?.code == "authorizationDenied")
        #expect(result.deferred[.motionFitness]?.message.hasPrefix("already answered") == true)
        #expect(DoorstepAI.checkPermission(session, .motionFitness).canRequest == false)
    }

    @Test("an empty whitelist asks nothing and completes at once with empty collections")
    func emptyWhitelist() {
        var session = Sessions.make()
        let start = session.now
        let result = DoorstepAI.requestPermissions(&session, [])
        #expect(result == DoorstepPermissionRequestResult())
        #expect(session.now == start)
    }

    @Test("timeout: an unanswered prompt is waited for 120 s, and the next prompt then cannot show")
    func timeout() {
        var session = Sessions.make(user: Sessions.user([.location: [.neverAnswers]]))
        let start = session.now
        let result = DoorstepAI.requestPermissions(&session, [.locationWhenInUse, .motionFitness])
        #expect(session.now.seconds(since: start) == 120)
        #expect(result.requested == [.locationWhenInUse])
        #expect(result.deferred[.motionFitness]?.code == "authorizationRequestInProgress")
        #expect(result.statuses[.locationWhenInUse]?.state == .notDetermined)
    }

    @Test("statuses are settled, not a snapshot taken while the alert was on screen")
    func settledStatuses() {
        var session = Sessions.make(user: Sessions.user([.location: [.answer(.allowWhileUsing(precise: false), afterSeconds: 40)]]))
        let result = DoorstepAI.requestPermissions(&session, [.locationWhenInUse])
        #expect(result.statuses[.locationWhenInUse]?.state == .granted)
        #expect(result.statuses[.locationWhenInUse]?.osStatus == "authorizedWhenInUse,accuracy=reduced")
    }

    @Test("the superseded boolean requester translates its flags into a whitelist")
    func legacyShim() {
        #expect(DoorstepAI.legacyWhitelist(requestAlwaysLocation: true, requestBluetooth: false) == [.locationAlways, .motionFitness])
        #expect(
            DoorstepAI.legacyWhitelist(requestAlwaysLocation: false, requestBluetooth: true)
                == [.locationWhenInUse, .motionFitness, .bluetooth])
        var shim = Sessions.make()
        var direct = Sessions.make()
        let viaShim = DoorstepAI.requestAllPermissions(&shim, requestAlwaysLocation: true, requestBluetooth: true)
        let viaList = DoorstepAI.requestPermissions(&direct, [.locationAlways, .motionFitness, .bluetooth])
        #expect(viaShim == viaList)
    }

    @Test("the collector asks for Always on its own the first time, whatever the whitelist")
    func collectorAsks() {
        var session = Sessions.make(user: Sessions.user([.location: [Sessions.allowWhileUsing]]))
        #expect(DoorstepAI.startDelivery(&session) == [.promptShown(.locationForAlways)])
        session.drain()
        #expect(DoorstepAI.startDelivery(&session).isEmpty)
    }

    @Test("route geofencing asks only while location is still notDetermined")
    func routeGeofencing() {
        var fresh = Sessions.make(user: Sessions.user([.location: [.neverAnswers]]))
        #expect(DoorstepAI.startRouteGeofencing(&fresh) == [.promptShown(.locationForAlways)])
        var answered = Sessions.make { $0.authorization.storedStatus = .authorizedWhenInUse }
        #expect(DoorstepAI.startRouteGeofencing(&answered).isEmpty)
    }

    @Test("staged flow: onboarding, Always after an explanation, motion, bluetooth; Settings at the Always dead end")
    func stagedFlow() {
        var session = Sessions.make(
            user: Sessions.user([
                .location: [Sessions.allowWhileUsing], .motion: [.answer(.allow, afterSeconds: 2)],
                .bluetooth: [.answer(.deny, afterSeconds: 2)],
            ]))
        let stages = DoorstepAI.runStagedFlow(&session)
        #expect(stages.map(\.name) == ["onboarding", "upgradeToAlways", "motionAndFitness", "bluetooth"])
        #expect(stages[0].result?.statuses[.locationWhenInUse]?.state == .granted)
        // After While Using, Always is whenInUseOnly: nothing left to prompt, Settings is the way.
        #expect(stages[1].result?.requested == [])
        #expect(stages[1].openedSettings)
        #expect(stages[2].result?.statuses[.motionFitness]?.state == .granted)
        #expect(stages[3].result?.statuses[.bluetooth]?.state == .permanentlyDenied)
        #expect(session.promptsShown == [.location, .motion, .bluetooth])
    }

    @Test("example logPermissions: all, a subset, a single bucket and the JSON line")
    func exampleLogPermissions() {
        let session = Sessions.make { $0.authorization.storedStatus = .authorizedWhenInUse }
        #expect(DoorstepAI.checkPermissions(session).count == 4)
        #expect(DoorstepAI.checkPermissions(session, [.locationWhenInUse, .locationAlways]).count == 2)
        #expect(DoorstepAI.checkPermission(session, .locationAlways).state == .whenInUseOnly)
        #expect(DoorstepAI.checkPermissionsJson(session).hasPrefix(#"{"locationWhenInUse":{"state":"granted""#))
    }

    @Test("example askForTracking: Always and motion, prompted in order, Always settling on whenInUseOnly")
    func exampleAskForTracking() {
        var session = Sessions.make()
        let results = Collected<DoorstepPermissionRequestResult>()
        DoorstepAI.requestPermissions(&session, [.locationAlways, .motionFitness]) { results.append($0) }
        let result = results.all.first
        #expect(result?.requested == [.locationAlways, .motionFitness])
        #expect(result?.alreadyDetermined == [])
        #expect(result?.unavailable == [])
        #expect(result?.statuses[.locationAlways]?.state == .whenInUseOnly)
        #expect(result?.didRequest == true)
    }

    @Test("troubleshooting: notDeclared, whenInUseOnly after locking, and a refused bucket deferred as already answered")
    func troubleshooting() {
        let undeclared = Sessions.make { $0.infoPlist.hasMotionUsageDescription = false }
        #expect(DoorstepAI.checkPermission(undeclared, .motionFitness).state == .notDeclared)
        var refused = Sessions.make(user: Sessions.user([.motion: [.answer(.deny, afterSeconds: 1)]]))
        DoorstepAI.requestPermissions(&refused, [.motionFitness])
        let again = DoorstepAI.requestPermissions(&refused, [.motionFitness])
        #expect(again.deferred[.motionFitness]?.message.hasPrefix("already answered") == true)
        #expect(DoorstepAI.checkPermission(refused, .motionFitness).canRequest == false)
    }
}
