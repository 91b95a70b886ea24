import Device
import Engine
import Permissions

/// The built-in scenarios, one per permission level. Each names the fact-sheet rows (a8, the
/// degradation matrix, and the rules behind it) it reproduces, and each names its OS profile:
/// never `current`, so a preset means the same thing when `current` moves to a newer iOS.
///
/// Each also names its person, whose answers match the preset's name, and the status the name
/// promises: an app that asks for more than the name says (an Always request under
/// `wheninuse-locked`) meets a person who declines it, so the row still measures what its name
/// says. Documentation/TraceSim.docc/ScenariosAndMatrix.md lists them.
extension Scenario {
    /// Every preset, in the order reports list them; `ideal` first.
    public static let presets: [Scenario] = [
        Scenario(
            name: "ideal", summary: "Always + Precise, app in the foreground: the reference",
            factRows: ["a8 Always + Precise"], device: with(.ios26) { _ in }
        ).person(.agreeable, expecting: .authorizedAlways),
        locked("always-precise", "Always + Precise, phone locked after 60 s", ["a8 Always + Precise", "a4"], .ios26) {
            _ in
        }.person(.agreeable, expecting: .authorizedAlways),
        locked(
            "always-approximate", "Always with Approximate location: a few coarse fixes an hour",
            ["a8 Always + Approximate", "a2"], .ios26
        ) {
            $0.authorization.isPrecise = false
        }.person(.keepsApproximate, expecting: .authorizedAlways),
        provisionalAlways,
        Scenario(
            name: "wheninuse-foreground", summary: "When-In-Use, app stays in the foreground",
            factRows: ["a8 WIU", "a4"], device: with(.ios26) { $0.authorization.storedStatus = .authorizedWhenInUse }
        ).person(.keepsWhileUsing, expecting: .authorizedWhenInUse),
        withoutBackgroundUpdates(
            locked(
                "wheninuse-locked", "When-In-Use, locked after 60 s: nothing after the 70 s cutoff",
                ["a8 WIU without session", "a4 #2-3"], .ios26
            ) {
                $0.authorization.storedStatus = .authorizedWhenInUse
            }
        ).person(.keepsWhileUsing, expecting: .authorizedWhenInUse),
        wheninuseBackgroundSession,
        withoutBackgroundUpdates(
            locked(
                "allow-once", "Allow Once: lapses when the app is no longer in use", ["a8 Allow Once", "a1 #11-12"],
                .ios26
            ) {
                $0.authorization.storedStatus = .authorizedWhenInUse
                $0.authorization.isAllowOnce = true
            }
        ).person(.allowsOnce, expecting: .authorizedWhenInUse),
        Scenario(
            name: "denied", summary: "Location denied", factRows: ["a8 Denied", "a1 #6"],
            device: with(.ios26) { $0.authorization.storedStatus = .denied }
        ).person(.refusesLocation, expecting: .denied),
        Scenario(
            name: "restricted", summary: "Location restricted (parental controls, MDM)",
            factRows: ["a8 Restricted", "a1 #2"],
            device: with(.ios26) { $0.authorization.storedStatus = .restricted }
        ).person(.agreeable, expecting: .restricted),
        Scenario(
            name: "services-off", summary: "Location Services off device-wide",
            factRows: ["a8 Location Services off", "a1 #4"],
            device: with(.ios26) { $0.authorization.isLocationServicesEnabled = false }
        ).person(.agreeable, expecting: .denied),
        locked(
            "always-motion-denied", "Always, motion denied: departures wait for the stationary region",
            ["a8 Motion denied", "a7"], .ios26
        ) {
            $0.authorization.motionStatus = .denied
        }.person(.refusesMotion, expecting: .authorizedAlways),
        Scenario(
            name: "always-force-quit",
            summary: "Always on iOS 18, force-quit at 25%; relaunched by a region exit or significant change",
            factRows: ["a8 Always + Precise", "a4 force-quit", "a6 relaunch", "d 6"], device: with(.ios18) { _ in },
            timeline: [.init(.fraction(0.25), .user(.forceQuitApp))]
        ).person(.agreeable, expecting: .authorizedAlways),
        Scenario(
            name: "always-force-quit-ios26",
            summary:
                "Always on iOS 26, force-quit at 25%: neither a region exit nor a significant change relaunches it",
            factRows: ["a8 Always + Precise", "a4 force-quit", "d 6"], device: with(.ios26) { _ in },
            timeline: [.init(.fraction(0.25), .user(.forceQuitApp))]
        ).person(.agreeable, expecting: .authorizedAlways),
        Scenario(
            name: "wheninuse-force-quit", summary: "When-In-Use, force-quit at 25%: never comes back",
            factRows: ["a8 WIU", "a4 force-quit"],
            device: with(.ios26) { $0.authorization.storedStatus = .authorizedWhenInUse },
            timeline: [.init(.fraction(0.25), .user(.forceQuitApp))]
        ).person(.keepsWhileUsing, expecting: .authorizedWhenInUse),
        Scenario(
            name: "missing-usage-key", summary: "No location usage keys in Info.plist: no prompt, nothing collected",
            factRows: ["a3"],
            device: with(.ios26) {
                $0.authorization = AuthorizationStateMachine.State()
                $0.authorization.motionStatus = .authorized
                $0.infoPlist.hasWhenInUseUsageDescription = false
                $0.infoPlist.hasAlwaysAndWhenInUseUsageDescription = false
            },
            authorization: .flow(.bggeo)
        ).person(.agreeable, expecting: .notDetermined),
        alwaysPreventSuspend,
        alwaysAutomaticPause,
    ]

    /// The preset with this name.
    public static func preset(named name: String) -> Scenario? { presets.first { $0.name == name } }

    private static var provisionalAlways: Scenario {
        // A fresh install on iOS 13 asks for Always through the facade; the person allows
        // While Using, locks the phone, and glances at it halfway through. The one-shot
        // upgrade prompt raised by a background event waits for that unlock (a1 #10) and is
        // accepted; the event it held is delivered if the answer comes within the hold.
        var device = Device.Configuration()
        device.parameters.osProfile = .ios13
        device.authorization.motionStatus = .authorized
        return Scenario(
            name: "provisional-always",
            summary: "iOS 13 provisional Always: the upgrade prompt waits for the unlock at 50%",
            factRows: ["a8 Provisional Always", "a1 #10"], device: device, authorization: .flow(.bggeo),
            timeline: [
                .init(.seconds(60), .user(.lockedScreen)), .init(.fraction(0.5), .user(.unlockedScreen)),
                .init(.fraction(0.52), .user(.lockedScreen)),
            ]
        ).person(.agreeable, expecting: .authorizedAlways)
    }

    private static var wheninuseBackgroundSession: Scenario {
        var engine = EngineConfiguration()
        engine.startsBackgroundSession = true
        return Scenario(
            name: "wheninuse-background-session",
            summary: "When-In-Use with a background activity session, locked after 60 s",
            factRows: ["a8 WIU + session", "a4 #4 #8"],
            device: with(.ios26) { $0.authorization.storedStatus = .authorizedWhenInUse },
            timeline: [.init(.seconds(60), .user(.lockedScreen))], engine: engine
        ).person(.keepsWhileUsing, expecting: .authorizedWhenInUse)
    }

    private static func locked(
        _ name: String, _ summary: String, _ rows: [String], _ profile: OSBehaviourProfile,
        _ change: (inout Device.Configuration) -> Void
    ) -> Scenario {
        Scenario(
            name: name, summary: summary, factRows: rows, device: with(profile, change),
            timeline: [.init(.seconds(60), .user(.lockedScreen))])
    }

    /// Updates started without `allowsBackgroundLocationUpdates`: nothing keeps a When-In-Use
    /// app in use once it leaves the screen (fact sheet a8, "WIU without bg mode").
    private static func withoutBackgroundUpdates(_ scenario: Scenario) -> Scenario {
        var changed = scenario
        changed.engine.locationOptions.allowsBackgroundLocationUpdates = false
        return changed
    }

    /// The ideal phone on `profile`, changed by `change`. Every preset names its profile here.
    private static func with(
        _ profile: OSBehaviourProfile, _ change: (inout Device.Configuration) -> Void
    ) -> Device.Configuration {
        var device = idealDevice
        device.parameters.osProfile = profile
        change(&device)
        return device
    }

    private static var alwaysPreventSuspend: Scenario {
        // Transistorsoft's preventSuspend (b1, a4 #16): a service kept running while parked, so
        // iOS does not suspend the locked app and motion still reports departures; paid in GPS.
        var scenario = locked(
            "always-prevent-suspend", "Always + Precise, locked after 60 s, with the SDK's preventSuspend keep-alive",
            ["a8 Always + Precise", "a4 #2", "a4 #16", "b1 preventSuspend"], .ios26
        ) { _ in }
        scenario.engine.preventSuspend = true
        scenario.engine.heartbeatIntervalSeconds = 60
        return scenario.person(.agreeable, expecting: .authorizedAlways)
    }

    private static var alwaysAutomaticPause: Scenario {
        // No stop detection of the engine's own (a stop timeout longer than any trace), so iOS's
        // pausesLocationUpdatesAutomatically decides the stops (a4 #7, b1 disableStopDetection).
        var scenario = locked(
            "always-automatic-pause", "Always + Precise, locked after 60 s; iOS's automatic pause ends each stop",
            ["a8 Always + Precise", "a4 #7", "b1 pausesLocationUpdatesAutomatically"], .ios26
        ) { _ in }
        scenario.engine.locationOptions.pausesLocationUpdatesAutomatically = true
        scenario.engine.motion.stopTimeoutSeconds = 86_400
        return scenario.person(.agreeable, expecting: .authorizedAlways)
    }

    /// This scenario with `user` as its person, promising `status` at the end of a run.
    private func person(_ user: SimulatedUser, expecting status: AuthorizationStatus) -> Scenario {
        var changed = self
        changed.user = user
        changed.expectedAuthorization = status
        return changed
    }
}
