/// Every iOS behaviour the simulated device encodes. The code that applies a rule names it
/// (prompt suppressions, dropped fixes and refused regions carry the rule as their reason),
/// and `tracesim rules` prints this catalogue, so the list cannot drift from the behaviour.
///
/// Sources are rows of the iOS engine fact sheet (`a1 #6` is section a1, row 6).
public enum DeviceRule: String, CaseIterable, Sendable {
    // Authorization and prompts (fact sheet a1, a2, a3)
    case servicesOffReportsDenied
    case servicesOnRestoresPreviousState
    case restrictedCannotChange
    case promptsOnlyInForeground
    case onePromptAtATime
    case missingUsageKeyIgnoresRequest
    case whenInUseRequestOnlyFromNotDetermined
    case dontAllowIsFinal
    case alwaysRequestOncePerInstall
    case alwaysUpgradeFromWhenInUse
    case firstAlwaysRequestFollowsProfile
    case deferredUpgradePrompt
    case deferredUpgradePromptWaitsForUnlock
    case deferredUpgradeHoldsTriggeringEvent
    case alwaysRequestWhenAlwaysDoesNothing
    case alwaysRequestResetsWhenNotDetermined
    case allowOnceIgnoresAlwaysRequests
    case allowOnceLapsesWhenNotInUse
    case defaultAccuracyReduced
    case temporaryFullAccuracyNeedsPurposeKey
    case temporaryFullAccuracyFailsInBackground
    case temporaryFullAccuracyLastsUntilRelaunch
    case temporaryFullAccuracyNotNeededWhenPrecise
    case motionRequestPrompts
    case motionMissingUsageKeyCrashes
    case motionUnavailableWithoutHardware
    case bluetoothPromptsOnCentralManager
    // Lifecycle and "in use" (a4)
    case inUseIncludesCutoffAfterForeground
    case backgroundSessionKeepsInUse
    case startingUpdatesInBackgroundFails
    case backgroundUpdatesWithoutModeCrash
    case suspendedAppsReceiveNothing
    case forceQuitStopsEverything
    case forceQuitRelaunchOnLocationEvents
    case forceQuitNoRelaunchOnIOS26
    case backgroundAppRefreshOffStopsWakes
    case lowPowerModeStopsWakes
    case locationEventsWaitForFirstUnlock
    case memoryPressureKillsInBackground
    case wakeWindowAfterRelaunch
    case backgroundAppSuspendedAfterGrace
    case suspendedAppGetsNoMotionOrTimers
    case resumedAppGetsCurrentMotion
    case wokenAppSuspendedAfterWakeWindow
    case suspendedAppUpdatesQueued
    case deliveredLocationsAsReceiverReports
    case severalLocationsPerCall
    case receiverRunsOnlyForRunningUpdates
    case backgroundSessionFormsWhileInUse
    // Delivery (a2, a4, a8, d1)
    case noDeliveryWithoutAuthorization
    case updatesMustBeRunning
    case whenInUseStopsAfterCutoff
    case alwaysContinuesInBackground
    case automaticPause
    case reducedAccuracyFewFixesPerHour
    case reducedAccuracyDisplacedPosition
    // Regions and significant change (a5, a6)
    case regionLimit
    case regionRequiresAuthorization
    case regionUnavailableWithReducedAccuracy
    case regionHysteresis
    case regionEventsWhenNotInUseNeedAlways
    case regionEventLatency
    case regionCrossingMissed
    case reducedAccuracyAppliesToEveryService
    case significantChangeService
    case visitService
    // Motion coprocessor (a7)
    case motionDeliversRecordedActivity
    case motionDerivedFromSpeed
}

/// What the catalogue says about one rule.
public struct DeviceRuleInfo: Sendable {
    /// One sentence: what the device does.
    public var summary: String
    /// The iOS API or behaviour it models.
    public var models: String
    /// The fact-sheet row(s) it comes from.
    public var source: String
    /// How strong that source is.
    public var evidence: Evidence
    /// The `DeviceParameters` it reads, by name.
    public var parameters: [String]
    /// The OS profiles it applies to (every profile unless iOS changed it).
    public var profiles: [OSBehaviourProfile]

    /// Whether the rule holds on every profile.
    public var appliesToEveryProfile: Bool { profiles == OSBehaviourProfile.allCases }
}

extension DeviceRule {
    /// The rule's catalogue entry.
    public var info: DeviceRuleInfo {
        switch self {
        case .servicesOffReportsDenied:
            entry(
                "With Location Services off device-wide, the app reads `denied` and nothing is delivered.",
                "CLLocationManager.locationServicesEnabled(), CLAuthorizationStatus.denied", "a1 #3, a1 #4", .apple)
        case .servicesOnRestoresPreviousState:
            entry(
                "Turning Location Services back on restores the app's previous authorization.",
                "locationManagerDidChangeAuthorization(_:)", "a1 #4", .apple)
        case .restrictedCannotChange:
            entry(
                "`restricted` is set by parental controls or MDM; no prompt or request changes it.",
                "CLAuthorizationStatus.restricted", "a1 #2", .apple)
        case .promptsOnlyInForeground:
            entry(
                "A system prompt is shown only while the app is in the foreground.",
                "requestWhenInUseAuthorization()", "a1 #5", .apple)
        case .onePromptAtATime:
            // No Apple sentence says it for location; a second request is dropped, never
            // queued, in every report found (issue 31 §6).
            entry(
                "While a prompt is on screen, another request shows nothing.",
                "system alert presentation",
                "iOS 18 CLServiceSession.Diagnostic.authorizationRequestInProgress (by name); Apple forums 751682 "
                    + "(a privacy prompt makes the app inactive, iOS 17.4); react-native-permissions #896 (2024: "
                    + "location and notification requested together, one prompt shown)",
                .observed)
        case .missingUsageKeyIgnoresRequest:
            entry(
                "A request whose Info.plist usage description is missing is ignored: no prompt, status unchanged.",
                "NSLocationWhenInUseUsageDescription, NSLocationAlwaysAndWhenInUseUsageDescription", "a3", .apple)
        case .whenInUseRequestOnlyFromNotDetermined:
            entry(
                "requestWhenInUseAuthorization acts only from `notDetermined`; otherwise nothing happens.",
                "requestWhenInUseAuthorization()", "a1 #6", .apple)
        case .dontAllowIsFinal:
            entry(
                "After Don't Allow the app is `denied`; only the user, in Settings, can change it.",
                "CLAuthorizationStatus.denied", "a1 #6", .apple)
        case .alwaysRequestOncePerInstall:
            entry(
                "requestAlwaysAuthorization has an effect once; later calls do nothing until the status returns to "
                    + "`notDetermined` (see alwaysRequestResetsWhenNotDetermined).",
                "requestAlwaysAuthorization()", "a1 #7", .apple)
        case .alwaysUpgradeFromWhenInUse:
            entry(
                "From When-In-Use, an Always request prompts at once: Keep Only While Using or Change to Always Allow.",
                "requestAlwaysAuthorization()", "a1 #8", .apple)
        case .firstAlwaysRequestFollowsProfile:
            entry(
                "A first Always request from `notDetermined` shows the When-In-Use prompt; Allow While Using gives "
                    + "`authorizedWhenInUse` (current iOS) or provisional `authorizedAlways` (ios13 profile, or "
                    + "firstAlwaysRequestGrantsProvisionalAlways).",
                "requestAlwaysAuthorization()", "a1 #9, d 17", .product,
                ["osProfile", "firstAlwaysRequestGrantsProvisionalAlways"])
        case .deferredUpgradePrompt:
            entry(
                "After a first Always request settled on While Using, an Always-requiring event (background region, "
                    + "significant change) raises the one-shot upgrade prompt, shown when the person can answer it.",
                "provisional Always", "a1 #10, d 17", .apple)
        case .deferredUpgradePromptWaitsForUnlock:
            entry(
                "The deferred upgrade prompt is not shown on a locked screen: it appears when the person next has the "
                    + "phone unlocked (an unlock, a launch, a switch).",
                "requestAlwaysAuthorization() second prompt",
                "a1 #10, d 3; Apple requestAlwaysAuthorization (iOS 13 text: second prompt after an Always-requiring "
                    + "event); WWDC19 705 notes (prompt waits until the user is not busy; old events dropped)",
                .wwdc)
        case .deferredUpgradeHoldsTriggeringEvent:
            entry(
                "The background event that raised the deferred upgrade prompt is held: if the answer grants Always "
                    + "within the hold time it reaches the app (waking or relaunching it), otherwise it is dropped.",
                "requestAlwaysAuthorization() second prompt",
                "a1 #10, d 3; WWDC19 705 notes (the event is stored for a limited time; old events are dropped)",
                .wwdc, ["deferredUpgradeEventHoldSeconds"])
        case .alwaysRequestWhenAlwaysDoesNothing:
            entry(
                "An Always request from an app that already has Always shows nothing and changes nothing.",
                "requestAlwaysAuthorization()", "a1 #7", .apple)
        case .alwaysRequestResetsWhenNotDetermined:
            entry(
                "The one Always request is available again once the status is back at `notDetermined`: after "
                    + "Allow Once lapses and after Ask Next Time in Settings.",
                "requestAlwaysAuthorization(), Allow Once, Settings > Ask Next Time",
                "a1 #7, a1 #12; Apple requestAlwaysAuthorization (Allow Once ignores it for the temporary grant); "
                    + "Medium 'Location Permission in iOS 13' (2020-05-15: Allow Once reads Ask Next Time and "
                    + "returns to notDetermined)",
                .observed)
        case .allowOnceIgnoresAlwaysRequests:
            entry(
                "While Allow Once holds, Always requests are ignored.", "requestAlwaysAuthorization()",
                "a1 #11", .apple)
        case .allowOnceLapsesWhenNotInUse:
            entry(
                "Allow Once lapses back to `notDetermined` a lapse delay after the app stops being in use (the "
                    + "When-In-Use cutoff), and at once when the app is terminated.",
                "temporary When-In-Use authorization",
                "a1 #12, d 2; Apple requestAlwaysAuthorization (expires when no longer in use); Expo location docs "
                    + "(revoked when the app is closed)", .apple,
                ["whenInUseLockCutoffSeconds", "allowOnceLapseSeconds"])
        case .defaultAccuracyReduced:
            entry(
                "With NSLocationDefaultAccuracyReduced the prompt starts with Precise off.",
                "NSLocationDefaultAccuracyReduced", "a2 #7", .apple)
        case .temporaryFullAccuracyNeedsPurposeKey:
            entry(
                "Temporary full accuracy needs a purpose key in NSLocationTemporaryUsageDescriptionDictionary; "
                    + "without it no prompt and no callback.",
                "requestTemporaryFullAccuracyAuthorization(withPurposeKey:)", "a2 #9", .apple)
        case .temporaryFullAccuracyFailsInBackground:
            entry(
                "Temporary full accuracy cannot be requested from the background.",
                "requestTemporaryFullAccuracyAuthorization(withPurposeKey:)", "a2 #9", .apple)
        case .temporaryFullAccuracyLastsUntilRelaunch:
            entry(
                "A temporary full-accuracy grant lasts until the app is next launched.",
                "requestTemporaryFullAccuracyAuthorization(withPurposeKey:)", "a2 #9", .apple)
        case .temporaryFullAccuracyNotNeededWhenPrecise:
            entry(
                "An app that already has full accuracy gets no temporary full-accuracy prompt; its request "
                    + "completes at once.",
                "requestTemporaryFullAccuracyAuthorization(withPurposeKey:)", "a2 #9", .apple)
        case .motionRequestPrompts:
            entry(
                "The first motion-activity request prompts when motion is `notDetermined`.",
                "CMMotionActivityManager.authorizationStatus()", "a7 #2", .apple)
        case .motionMissingUsageKeyCrashes:
            entry(
                "Calling the motion API without NSMotionUsageDescription terminates the app.",
                "NSMotionUsageDescription", "a3", .apple)
        case .motionUnavailableWithoutHardware:
            entry(
                "Without motion hardware no activity is delivered and nothing prompts.",
                "CMMotionActivityManager.isActivityAvailable()", "a7 #2", .apple)
        case .bluetoothPromptsOnCentralManager:
            entry(
                "Creating a central manager is what shows the Bluetooth prompt (once, from `notDetermined`).",
                "CBCentralManager, CBManager.authorization", "issue spec (seed SDK behaviour)", .sdk)
        case .inUseIncludesCutoffAfterForeground:
            entry(
                "The app is in use in the foreground and until the When-In-Use cutoff after it leaves the foreground "
                    + "or the screen locks.",
                "When-In-Use \"in use\" grace period", "a4 #3, d 1", .product, ["whenInUseLockCutoffSeconds"])
        case .backgroundSessionKeepsInUse:
            entry(
                "Updates started while in use with the location background mode and "
                    + "allowsBackgroundLocationUpdates, or a background activity session, keep a When-In-Use app in use.",
                "allowsBackgroundLocationUpdates, CLBackgroundActivitySession", "a4 #4, a4 #8", .apple)
        case .startingUpdatesInBackgroundFails:
            entry(
                "A When-In-Use app cannot start location updates while not in use.",
                "startUpdatingLocation()", "a4 #5", .apple)
        case .backgroundUpdatesWithoutModeCrash:
            entry(
                "allowsBackgroundLocationUpdates without `location` in UIBackgroundModes terminates the app.",
                "allowsBackgroundLocationUpdates", "a3", .apple)
        case .suspendedAppsReceiveNothing:
            entry(
                "A suspended app runs no code and gets nothing while suspended: its running updates stop, unless "
                    + "suspendedAppQueuesUpdates queues them; a terminated app receives nothing.",
                "app suspension, allowsBackgroundLocationUpdates, startUpdatingLocation()",
                "a4 #2; Apple allowsBackgroundLocationUpdates (updates stop when suspended)", .apple,
                ["suspendedAppQueuesUpdates"])
        case .forceQuitStopsEverything:
            entry(
                "After a user force-quit nothing is delivered until relaunch; a visit never relaunches it, and a "
                    + "region or significant-change event only as the profile or its override says.",
                "user force-quit", "a4 #13, d 6", .observed,
                ["regionRelaunchAfterForceQuit", "significantChangeRelaunchAfterForceQuit"])
        case .forceQuitRelaunchOnLocationEvents:
            entry(
                "Up to iOS 18 a region or significant-change event relaunches a force-quit Always app into the "
                    + "background (location apps are the exception to no relaunch after a force quit).",
                "UIApplication.LaunchOptionsKey.location after a force quit",
                "a4 #13, d 6; App Programming Guide via Apple forums 15808; Apple forums 826964 (2026)", .appleArchived,
                ["regionRelaunchAfterForceQuit", "significantChangeRelaunchAfterForceQuit"],
                profiles: OSBehaviourProfile.relaunchingForceQuitApps)
        case .forceQuitNoRelaunchOnIOS26:
            entry(
                "On iOS 26 neither a region nor a significant-change event relaunches a force-quit app; it stays "
                    + "gone until the person opens it.",
                "UIApplication.LaunchOptionsKey.location after a force quit",
                "d 6; Apple forums 826964 (2026); flutter_background_geolocation #1650, #1551", .observed,
                ["regionRelaunchAfterForceQuit", "significantChangeRelaunchAfterForceQuit"],
                profiles: OSBehaviourProfile.notRelaunchingForceQuitApps)
        case .backgroundAppRefreshOffStopsWakes:
            entry(
                "With Background App Refresh off, region, significant-change and visit events reach only a running "
                    + "app; they neither wake a suspended one nor relaunch a terminated one.",
                "Settings > General > Background App Refresh", "a6 #8, d 7", .appleArchived,
                ["backgroundAppRefresh"])
        case .lowPowerModeStopsWakes:
            entry(
                "Low Power Mode pauses background activity (Background App Refresh is off meanwhile): region, "
                    + "significant-change and visit events reach only a running app.",
                "ProcessInfo.isLowPowerModeEnabled", "a4 #15, a6 #8; ProcessInfo docs; Energy Efficiency Guide",
                .appleArchived, ["lowPowerMode", "lowPowerModeStopsWakes"])
        case .locationEventsWaitForFirstUnlock:
            entry(
                "After a restart, regions, significant changes and visits are not monitored until the person first "
                    + "unlocks the phone; crossings before that are lost.",
                "CLMonitor / region monitoring after reboot", "a4 #14, a6 #10, d 16", .apple,
                ["startsBeforeFirstUnlock"])
        case .memoryPressureKillsInBackground:
            entry(
                "While in the background or suspended the app may be ended under memory pressure, at a rate drawn "
                    + "from its own seeded generator; "
                    + "region, significant-change and visit events relaunch it under Always, whatever the profile.",
                "app termination by the system", "a4 #12; Apple forums 815618, 775888", .simulator,
                ["memoryPressureKillsPerHour"])
        case .wakeWindowAfterRelaunch:
            entry(
                "A region, significant-change or visit event relaunches or wakes the app into the background for a short "
                    + "window; one reaching a background app nothing keeps running (in the suspension grace or "
                    + "another window) starts a full window again.",
                "UIApplication.LaunchOptionsKey.location",
                "a4 #11; Apple forums 815618 (immediately after return up to about 30 s); window restarted by a "
                    + "later event: simulator decision", .appleArchived,
                ["wakeWindowSeconds"])
        case .backgroundAppSuspendedAfterGrace:
            entry(
                "A backgrounded app is suspended a short grace after nothing keeps it running: no background "
                    + "updates under Always, no background session, no updates while still in use.",
                "app suspension (applicationDidEnterBackground, UIBackgroundModes location)",
                "a4 #2; Apple: Extending your app's background execution time (5 s); running updates kept to the "
                    + "cutoff: product decision", .product,
                ["backgroundSuspensionGraceSeconds", "whenInUseLockCutoffSeconds"])
        case .suspendedAppGetsNoMotionOrTimers:
            entry(
                "A suspended app gets no motion activity and its timers do not fire; a timer that came due "
                    + "fires once when the same process runs again, and never after it ended.",
                "app suspension, CMMotionActivityManager handler, Timer", "a4 #2", .apple)
        case .resumedAppGetsCurrentMotion:
            entry(
                "An app that runs again after a suspension (in the foreground or woken) gets the newest motion "
                    + "activity it missed, once, then changes as before.",
                "CMMotionActivityManager.startActivityUpdates(to:withHandler:)",
                "Apple startActivityUpdates (handler gets the current activity when updates start); "
                    + "at resume: simulator decision", .simulator)
        case .wokenAppSuspendedAfterWakeWindow:
            entry(
                "A woken app is suspended again when its wake window ends, also one that had left the "
                    + "foreground earlier, unless it started a service that keeps it running.",
                "background wake for region, significant-change and visit events", "a4 #11, a4 #5, d 14",
                .appleArchived, ["wakeWindowSeconds"])
        case .suspendedAppUpdatesQueued:
            entry(
                "With suspendedAppQueuesUpdates, standard updates recorded while the app is suspended are queued "
                    + "(the newest few) and delivered in one call when it runs again; a When-In-Use app gets none "
                    + "recorded after it stops being in use.",
                "Handling location updates in the background", "a4 #2, a4 #3", .apple,
                ["suspendedAppQueuesUpdates", "suspendedLocationQueueLimit"])
        case .deliveredLocationsAsReceiverReports:
            entry(
                "Every delivered location has a horizontal accuracy in metres (HDOP times the range-error model, "
                    + "or an assumed figure for a source that records none); speed and course the trace lacks "
                    + "come from the previous recorded fix, the course staying invalid (-1) while nearly still.",
                "CLLocation horizontalAccuracy, speed, course",
                "CLLocation docs (a negative value is invalid); assumed accuracy and course threshold: "
                    + "simulator decision, issue 30", .simulator,
                ["assumedHorizontalAccuracyMeters", "courseMinimumSpeedMetersPerSecond"])
        case .severalLocationsPerCall:
            entry(
                "One didUpdateLocations call carries locationsPerDelivery locations, oldest first; held ones "
                    + "share the fate of a fix refused while they wait, and those held when the trace ends never arrive.",
                "locationManager(_:didUpdateLocations:)",
                "Apple didUpdateLocations (the array holds more than one location when updates were deferred "
                    + "or came faster than delivery)", .apple, ["locationsPerDelivery"])
        case .receiverRunsOnlyForRunningUpdates:
            entry(
                "GPS runs for the app only while its standard updates run unpaused with precise location and "
                    + "an authorization that delivers them now; for a suspended app only while suspendedAppQueuesUpdates "
                    + "keeps its updates running and queued.",
                "startUpdatingLocation(), pausesLocationUpdatesAutomatically",
                "a4 #2, a4 #7; suspended app: Apple allowsBackgroundLocationUpdates vs Handling location updates "
                    + "in the background (band, Device.md)", .simulator, ["suspendedAppQueuesUpdates"])
        case .backgroundSessionFormsWhileInUse:
            entry(
                "A background activity session, or background updates keeping a When-In-Use app in use, forms "
                    + "only when started while the app is in use: in the foreground or within the cutoff after it.",
                "CLBackgroundActivitySession, allowsBackgroundLocationUpdates",
                "a4 #4, a4 #8 (header: foreground only); grace included by product decision", .product,
                ["whenInUseLockCutoffSeconds"])
        case .noDeliveryWithoutAuthorization:
            entry(
                "Denied, restricted, not determined or Location Services off: no location is delivered.",
                "kCLErrorDenied", "a8", .apple)
        case .updatesMustBeRunning:
            entry(
                "Fixes are delivered only while the app has location updates running.",
                "startUpdatingLocation()/stopUpdatingLocation()", "a5 #1", .apple)
        case .whenInUseStopsAfterCutoff:
            entry(
                "Under When-In-Use, delivery stops at the cutoff after the screen locks or the app leaves the "
                    + "foreground, unless a background session is active.",
                "When-In-Use background delivery", "d 1, a4 #3", .product, ["whenInUseLockCutoffSeconds"])
        case .alwaysContinuesInBackground:
            entry(
                "Under Always, delivery continues in the background while the app runs.",
                "authorizedAlways", "a8", .apple)
        case .automaticPause:
            entry(
                "With pausesLocationUpdatesAutomatically, updates pause after the device stays put, also the "
                    + "queued updates of a suspended app (told when it runs again); a When-In-Use app loses access "
                    + "until relaunched.",
                "pausesLocationUpdatesAutomatically", "a4 #7", .observed,
                ["autoPauseAfterStationarySeconds", "autoPauseStationaryRadiusMeters"])
        case .reducedAccuracyFewFixesPerHour:
            entry(
                "With reduced accuracy at most a few fixes per hour are delivered, each with a large accuracy.",
                "CLAccuracyAuthorization.reducedAccuracy", "a2 #3, a2 #4, a2 #5", .apple,
                ["reducedFixesPerHour", "reducedHorizontalAccuracyMeters"])
        case .reducedAccuracyDisplacedPosition:
            entry(
                "A reduced fix is displaced 1-20 km from the true position, and the displacement holds for a while.",
                "kCLLocationAccuracyReduced", "a2 #3, a2 #6", .apple,
                [
                    "reducedDisplacementMinimumMeters", "reducedDisplacementMaximumMeters",
                    "reducedDisplacementHoldSeconds",
                ])
        case .regionLimit:
            entry(
                "At most 20 regions are monitored; the 21st fails. Reusing an identifier replaces the region.",
                "startMonitoring(for:)", "a6 #1", .apple, ["maximumMonitoredRegions"])
        case .regionRequiresAuthorization:
            entry(
                "Region monitoring needs Always, or When-In-Use while the app is in use.",
                "startMonitoring(for:)", "a5 #8, a6 #7", .apple)
        case .regionUnavailableWithReducedAccuracy:
            entry(
                "With reduced accuracy regions cannot be monitored.", "CLAccuracyAuthorization.reducedAccuracy",
                "a2 #2, a6 #9, d 4", .apple)
        case .regionHysteresis:
            entry(
                "A crossing is reported only after the position stays past the boundary by the cushion, on both "
                    + "sides, for a dwell time: an entry within the effective radius (at least the minimum) less the "
                    + "entry cushion, but no deeper than half that radius; an exit beyond radius + exit cushion, and "
                    + "never nearer the centre than an entry.",
                "region monitoring hysteresis",
                "a6 #4, a6 #6; exit cushion: react-native-background-geolocation #2353, #2597 (iOS 18.5, 26.3.1); "
                    + "small regions enter about 100 m from the centre: home-assistant/iOS #784", .appleArchived,
                [
                    "regionCushionMeters", "regionDwellSeconds", "regionMinimumEffectiveRadiusMeters",
                    "regionEntryCushionMeters",
                ])
        case .regionEventsWhenNotInUseNeedAlways:
            entry(
                "Region events reach an app that is not in use (and relaunch a terminated one) only under Always.",
                "region monitoring relaunch", "a6 #7", .apple)
        case .regionEventLatency:
            entry(
                "A region crossing reaches the app a latency after the dwell, drawn uniformly between a minimum "
                    + "and a maximum from the seeded generator, never before the same region's previous crossing; "
                    + "the delivery rules apply when it arrives.",
                "didEnterRegion / didExitRegion timing",
                "a6 #5, d 8; Radius Networks, Geofence Performance Testing on iOS (2015): nearly every time "
                    + "within 30 s of the crossing; Apple startMonitoring(for:) (3-5 min on average, if not sooner) "
                    + "is the pessimistic end; per-region order: simulator decision", .observed,
                ["regionLatencyMinimumSeconds", "regionLatencyMaximumSeconds"])
        case .regionCrossingMissed:
            entry(
                "The OS misses a share of region crossings: drawn per accepted crossing from the region monitor's "
                    + "own seeded generator, a missed crossing changes the region's side but reaches nobody.",
                "didEnterRegion / didExitRegion reliability",
                "Radius Networks (2015): a third-party app triggered on 93 of about 100 crossings; Shevchenko & "
                    + "Reips, Behavior Research Methods 56 (2024): 82.5 % of 360 crossings notified (iOS and "
                    + "Android pooled)", .observed, ["regionMissProbability"])
        case .reducedAccuracyAppliesToEveryService:
            entry(
                "With reduced accuracy, significant-change locations and visits are coarse too: displaced like the "
                    + "standard updates' fixes (the same held displacement) and reporting the reduced accuracy.",
                "NSLocationDefaultAccuracyReduced, CLVisit.horizontalAccuracy",
                "a2 #7, a2 #8, d 4", .apple,
                ["reducedFixesPerHour", "reducedHorizontalAccuracyMeters", "reducedDisplacementHoldSeconds"])
        case .significantChangeService:
            entry(
                "Significant-change events come after moving a distance drawn anew at each event (log-normal, median "
                    + "750 m, 95 % within 2,500 m, never under 500 m), at most every 5 minutes, with a cell or Wi-Fi "
                    + "grade location (500 m accuracy, displaced to match), and relaunch under Always.",
                "startMonitoringSignificantLocationChanges()",
                "a5 #5; Long Weekend Mobile 2010 (8 phones, 12 days, 3 cities)", .observed,
                [
                    "significantChangeDistanceMeters", "significantChangeIntervalSeconds",
                    "significantChangeDistanceMedianMeters", "significantChangeDistanceSpread",
                    "significantChangeHorizontalAccuracyMeters",
                ])
        case .visitService:
            entry(
                "A visit begins after the device stays within a small radius for a while and ends when it leaves; "
                    + "visits relaunch under Always and work with reduced accuracy.",
                "startMonitoringVisits(), CLVisit", "a5 #7, a2 #8, d 15", .simulator,
                ["visitRadiusMeters", "visitArrivalDwellSeconds"])
        case .motionDeliversRecordedActivity:
            entry(
                "With motion authorized and available, the trace's recorded activity samples are delivered.",
                "startActivityUpdates(to:withHandler:)", "a7 #1, a7 #3", .apple)
        case .motionDerivedFromSpeed:
            entry(
                "A trace without motion samples gets activity derived from speed, late by an onset latency and "
                    + "flickering at stops; derived samples are marked.",
                "CMMotionActivity transitions", "a7 #4, d 13", .observed,
                [
                    "motionOnsetLatencyMinimumSeconds", "motionOnsetLatencyMaximumSeconds",
                    "motionStopFlickerProbability",
                    "motionWalkingSpeedMetersPerSecond", "motionRunningSpeedMetersPerSecond",
                    "motionAutomotiveSpeedMetersPerSecond",
                ])
        }
    }

    private func entry(
        _ summary: String, _ models: String, _ source: String, _ evidence: Evidence, _ parameters: [String] = [],
        profiles: [OSBehaviourProfile] = OSBehaviourProfile.allCases
    ) -> DeviceRuleInfo {
        DeviceRuleInfo(
            summary: summary, models: models, source: source, evidence: evidence, parameters: parameters,
            profiles: profiles)
    }
}
