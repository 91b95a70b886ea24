import Device
import Permissions
import Testing

/// Every rule and example of the background-geolocation facade's document (seed 001).
@Suite("Background-geolocation facade")
struct BackgroundGeolocationTests {
    @Test("not determined: the standard prompt, offering When In Use")
    func notDetermined() {
        var session = Sessions.make(user: Sessions.user([.location: [Sessions.allowWhileUsing]]))
        #expect(BackgroundGeolocation.requestPermission(&session) == .whenInUse)
        #expect(session.promptsShown == [.locationForAlways])
        var whenInUse = Sessions.make(user: Sessions.user([.location: [Sessions.allowWhileUsing]]))
        #expect(BackgroundGeolocation.requestPermission(&whenInUse, locationAuthorizationRequest: .whenInUse) == .whenInUse)
        #expect(whenInUse.promptsShown == [.location])
    }

    @Test("When In Use with Always requested: the upgrade prompt, once per install")
    func upgradeOnce() {
        var session = Sessions.make(user: Sessions.user([.upgrade: [.answer(.changeToAlways, afterSeconds: 4)]])) {
            $0.authorization.storedStatus = .authorizedWhenInUse
        }
        #expect(BackgroundGeolocation.requestPermission(&session) == .always)
        #expect(session.promptsShown == [.alwaysUpgrade])
    }

    @Test("a declined upgrade makes every later call silent: no dialog, no error, the same status")
    func declinedUpgradeIsSilent() {
        var session = Sessions.make(user: Sessions.user([.upgrade: [.answer(.keepWhileUsing, afterSeconds: 4)]])) {
            $0.authorization.storedStatus = .authorizedWhenInUse
        }
        #expect(BackgroundGeolocation.requestPermission(&session) == .whenInUse)
        let before = session.now
        #expect(BackgroundGeolocation.requestPermission(&session) == .whenInUse)
        #expect(session.now == before)
        #expect(session.promptsShown == [.alwaysUpgrade])
    }

    @Test(
        "denied, Always, or When In Use when that is all that is wanted: no prompt, the status back",
        arguments: [
            (AuthorizationStatus.denied, BackgroundGeolocation.AuthorizationStatus.denied),
            (.authorizedAlways, .always), (.restricted, .restricted),
        ])
    func noPrompt(status: AuthorizationStatus, expected: BackgroundGeolocation.AuthorizationStatus) {
        var session = Sessions.make { $0.authorization.storedStatus = status }
        #expect(BackgroundGeolocation.requestPermission(&session) == expected)
        var any = Sessions.make { $0.authorization.storedStatus = .authorizedWhenInUse }
        #expect(BackgroundGeolocation.requestPermission(&any, locationAuthorizationRequest: .any) == .whenInUse)
        #expect(session.promptsShown.isEmpty && any.promptsShown.isEmpty)
    }

    @Test("example: reduced accuracy read from getProviderState, then a temporary upgrade")
    func temporaryFullAccuracy() {
        var session = Sessions.make(user: Sessions.user([.temporaryFullAccuracy: [.answer(.allow, afterSeconds: 3)]])) {
            $0.authorization.storedStatus = .authorizedAlways
            $0.authorization.isPrecise = false
            $0.infoPlist.temporaryFullAccuracyPurposes = ["DeliverFullAccuracy"]
        }
        #expect(
            BackgroundGeolocation.getProviderState(session)
                == .init(enabled: true, status: .always, accuracyAuthorization: .reduced))
        #expect(BackgroundGeolocation.requestTemporaryFullAccuracy(&session, purpose: "DeliverFullAccuracy") == .full)
    }

    @Test("an undeclared purpose never calls back: the 30 s watchdog resolves with the unchanged accuracy")
    func watchdog() {
        var session = Sessions.make {
            $0.authorization.storedStatus = .authorizedAlways
            $0.authorization.isPrecise = false
        }
        let start = session.now
        #expect(BackgroundGeolocation.requestTemporaryFullAccuracy(&session, purpose: "DeliverFullAccuracy") == .reduced)
        #expect(session.now.seconds(since: start) == 30)
    }

    @Test("temporary full accuracy fails in the background and lasts until the next launch")
    func temporaryScope() {
        var session = Sessions.make(
            user: Sessions.user([.temporaryFullAccuracy: [.answer(.allow, afterSeconds: 1)]]),
            script: [.init(atSeconds: 100, event: .user(.movedAppToBackground))]
        ) {
            $0.authorization.storedStatus = .authorizedAlways
            $0.authorization.isPrecise = false
            $0.infoPlist.temporaryFullAccuracyPurposes = ["Trip"]
        }
        #expect(BackgroundGeolocation.requestTemporaryFullAccuracy(&session, purpose: "Trip") == .full)
        session.advance(by: 200)
        session.perform(.user(.forceQuitApp))
        session.perform(.user(.launchedApp))
        #expect(BackgroundGeolocation.getProviderState(session).accuracyAuthorization == .reduced)
        session.perform(.user(.movedAppToBackground))
        #expect(BackgroundGeolocation.requestTemporaryFullAccuracy(&session, purpose: "Trip") == .reduced)
    }

    @Test("onProviderChange fires on every authorization, accuracy and Location Services change")
    func providerChanges() {
        var session = Sessions.make(
            user: try! SimulatedUser(
                responses: [.location: [.answer(.allowWhileUsing(precise: true), afterSeconds: 2)]],
                settingsChanges: [
                    .init(atSeconds: 60, change: .setPrecise(false)),
                    .init(atSeconds: 120, change: .setLocationServices(false)),
                    .init(atSeconds: 180, change: .setLocationServices(true)),
                ]))
        _ = BackgroundGeolocation.requestPermission(&session, locationAuthorizationRequest: .whenInUse)
        session.advance(by: 300)
        let changes = BackgroundGeolocation.providerChanges(session)
        #expect(changes.map(\.atSeconds) == [2, 60, 120, 180])
        #expect(changes.map(\.state.enabled) == [true, true, false, true])
        #expect(changes.map(\.state.status) == [.whenInUse, .whenInUse, .denied, .whenInUse])
        #expect(changes[1].state.accuracyAuthorization == .reduced)
    }
}

/// Every rule and example of the Airship delegate document (seed 003).
@Suite("Airship location permission delegate")
struct AirshipDelegateTests {
    @Test(
        "the three-state mapping",
        arguments: [
            (AuthorizationStatus.notDetermined, AirshipLocationPermissionDelegate.Status.notDetermined),
            (.restricted, .denied), (.denied, .denied), (.authorizedAlways, .granted), (.authorizedWhenInUse, .granted),
        ])
    func mapping(status: AuthorizationStatus, expected: AirshipLocationPermissionDelegate.Status) {
        let session = Sessions.make { $0.authorization.storedStatus = status }
        #expect(AirshipLocationPermissionDelegate.checkPermissionStatus(session).status == expected)
    }

    @Test("requestPermission acts only from notDetermined")
    func onlyFromNotDetermined() {
        var session = Sessions.make { $0.authorization.storedStatus = .denied }
        #expect(AirshipLocationPermissionDelegate.requestPermission(&session).status == .denied)
        #expect(session.promptsShown.isEmpty)
    }

    @Test("requestPermission while not active returns notDetermined without asking")
    func onlyWhileActive() {
        var session = Sessions.make()
        session.perform(.user(.movedAppToBackground))
        #expect(AirshipLocationPermissionDelegate.requestPermission(&session).status == .notDetermined)
        #expect(session.device.promptLog.isEmpty)
    }

    @Test("requestPermission returns when the app becomes active again, after the alert is answered")
    func waitsForActive() {
        var session = Sessions.make(user: Sessions.user([.location: [.answer(.allowWhileUsing(precise: true), afterSeconds: 7)]]))
        let start = session.now
        let outcome = AirshipLocationPermissionDelegate.requestPermission(&session)
        #expect(session.now.seconds(since: start) == 7)
        #expect(outcome.status == .granted)
    }

    @Test("granted while only When-In-Use is said out loud: background collection is impossible")
    func collapsedGranted() {
        let whenInUse = Sessions.make { $0.authorization.storedStatus = .authorizedWhenInUse }
        let outcome = AirshipLocationPermissionDelegate.checkPermissionStatus(whenInUse)
        #expect(outcome.status == .granted)
        #expect(!outcome.isBackgroundCollectionPossible)
        #expect(outcome.warning != nil)
        let always = Sessions.make { $0.authorization.storedStatus = .authorizedAlways }
        #expect(AirshipLocationPermissionDelegate.checkPermissionStatus(always).warning == nil)
    }

    @Test("the Objective-C example completes before the answer, so a first request reads notDetermined")
    func objectiveCExample() {
        var session = Sessions.make(user: Sessions.user([.location: [.answer(.allowWhileUsing(precise: true), afterSeconds: 3)]]))
        #expect(AirshipLocationPermissionDelegate.requestPermissionObjectiveC(&session).status == .notDetermined)
        session.drain()
        #expect(AirshipLocationPermissionDelegate.checkPermissionStatus(session).status == .granted)
    }
}
