extension DisputedBand {
    /// Every band: what `tracesim rules` lists and `matrix --bands` reruns. Each entry is one
    /// declaration; a band whose parameter does not exist, or whose end is out of range, fails
    /// `BandCatalogueTests`. Device.md gives each band its section.
    public static let catalogue: [DisputedBand] = [
        DisputedBand(
            "whenInUseCutoff", "How long a When-In-Use app stays in use after the lock",
            pessimistic: Bound(
                [Setting("whenInUseLockCutoffSeconds", .number(13))],
                source: "Apple: \"a few seconds\"; one field report of 13 s (adafruit/Bluefruit_LE_Connect_v2#43)",
                .observed),
            optimistic: Bound(
                [Setting("whenInUseLockCutoffSeconds", .number(1_200))],
                source: "10-20 min with a background mode (transistorsoft issues #1823, #2378)", .observed)),
        DisputedBand(
            "regionLatency", "Delay between a region crossing and its event",
            pessimistic: Bound(
                [
                    Setting("regionLatencyMinimumSeconds", .number(180)),
                    Setting("regionLatencyMaximumSeconds", .number(300)),
                ],
                source: "Apple startMonitoring(for:): 3 to 5 minutes on average", .apple),
            optimistic: Bound(
                [
                    Setting("regionLatencyMinimumSeconds", .number(0)),
                    Setting("regionLatencyMaximumSeconds", .number(0)),
                ],
                source: "immediate; Radius Networks 2015: nearly every time within 30 s of the crossing", .observed)),
        // The default draws each trigger distance from the field tables' log-normal (median 750 m,
        // spread 0.732); each end fixes it, with no spread.
        DisputedBand(
            "significantChangeDistance", "Movement that triggers a significant-change event",
            pessimistic: Bound(
                [
                    Setting("significantChangeDistanceMedianMeters", .number(2_500)),
                    Setting("significantChangeDistanceSpread", .number(0)),
                ],
                source: "field tables' upper tail: 2,500 m triggers 95 % of the time (Long Weekend Mobile, 2010)",
                .observed),
            optimistic: Bound(
                [
                    Setting("significantChangeDistanceMedianMeters", .number(500)),
                    Setting("significantChangeDistanceSpread", .number(0)),
                ],
                source: "Apple's 500 m minimum, every time (startMonitoringSignificantLocationChanges)", .apple)),
        DisputedBand(
            "forceQuitRelaunch", "iOS 26: a location event relaunches an Always app the user force-quit",
            pessimistic: Bound(
                [
                    Setting("regionRelaunchAfterForceQuit", .optionalFlag(false)),
                    Setting("significantChangeRelaunchAfterForceQuit", .optionalFlag(false)),
                ],
                source: "never: Apple forums 826964 (iOS 26.4.2); the stationary fence did not (transistorsoft #2497)",
                .observed),
            optimistic: Bound(
                [
                    Setting("regionRelaunchAfterForceQuit", .optionalFlag(true)),
                    Setting("significantChangeRelaunchAfterForceQuit", .optionalFlag(true)),
                ],
                source:
                    "other geofences did (transistorsoft #2497, iOS 26.2.1); Apple's documented relaunch up to iOS 18",
                .observed)),
        DisputedBand(
            "memoryPressureKills", "System terminations of a background app",
            pessimistic: Bound(
                [Setting("memoryPressureKillsPerHour", .number(0.05))],
                source: "MetricKit on 4 GB phones: 1 kill in 20 h (iAPS pull request #2017); a transistorsoft "
                    + "maintainer: expect a termination after 24 h in the background", .observed),
            optimistic: Bound(
                [Setting("memoryPressureKillsPerHour", .number(0))], source: "no terminations", .simulator)),
        DisputedBand(
            "exitOvershoot", "How far past the radius a region exit fires",
            pessimistic: Bound(
                [Setting("regionCushionMeters", .number(200))],
                source:
                    "about 200 m (a Cordova geofence plugin, issue #541, 2017); 1.5 x the radius (owntracks/ios #675)",
                .observed),
            // The default (50 m) already reproduces #2353's and #2597's 50-100 m once the dwell and
            // latency walked past the radius are added (RegionExitExperiment); the optimistic end
            // is the overshoot with nothing walked on top.
            optimistic: Bound(
                [Setting("regionCushionMeters", .number(20))],
                source: "the nearest of 60-70 m past the radius on iOS 26.3.1 with GPS kept on (transistorsoft "
                    + "#2597), less the distance walked during the dwell", .observed)),
        DisputedBand(
            "regionMiss", "Share of region crossings never reported",
            pessimistic: Bound(
                [Setting("regionMissProbability", .number(0.175))],
                source: "82.5 % of 360 fence crossings notified, iOS and Android pooled (Shevchenko & Reips, "
                    + "Behavior Research Methods 56, 2024, doi 10.3758/s13428-023-02213-2)", .observed),
            optimistic: Bound(
                [Setting("regionMissProbability", .number(0))], source: "every crossing reported", .simulator)),
        DisputedBand(
            "wakeWindow", "Background run time after a region or significant-change wake",
            pessimistic: Bound(
                [Setting("wakeWindowSeconds", .number(0))],
                source: "\"immediately after return\" (an Apple engineer, developer forums 815618)", .observed),
            optimistic: Bound(
                [Setting("wakeWindowSeconds", .number(30))],
                source: "up to about 30 s (an Apple engineer, developer forums 815618)", .observed)),
        // Matters only when a scenario turns `lowPowerMode` on; no preset does.
        DisputedBand(
            "lowPowerModeWakes", "Low Power Mode stops region, significant-change and visit wakes",
            pessimistic: Bound(
                [Setting("lowPowerModeStopsWakes", .flag(true))],
                source: "the archived Location and Maps Programming Guide: wakes need Background App Refresh, which "
                    + "Low Power Mode turns off (Apple Support HT205234); field reports from iOS 7 and 10 only",
                .appleArchived),
            optimistic: Bound(
                [Setting("lowPowerModeStopsWakes", .flag(false))],
                source: "no measurement from iOS 13 on; an SDK header calls such wakes delayed, not stopped", .sdk)),
        DisputedBand(
            "firstAlwaysRequest", "A first direct Always request on current iOS",
            pessimistic: Bound(
                [Setting("firstAlwaysRequestGrantsProvisionalAlways", .optionalFlag(false))],
                source: "plain When In Use: the Doorstep SDK's documentation; Apple's current page no longer says",
                .sdk),
            optimistic: Bound(
                [Setting("firstAlwaysRequestGrantsProvisionalAlways", .optionalFlag(true))],
                source: "provisional Always: Apple's iOS 13-era page and WWDC19; nothing found that says it changed",
                .appleArchived)),
        // The default is the pessimistic end: a suspended app runs no GPS unless something holds
        // the receiver (Device Design, "Does a suspended app keep the receiver on?").
        DisputedBand(
            "suspendedReceiver", "The receiver stays on and updates queue for a suspended app",
            pessimistic: Bound(
                [Setting("suspendedAppQueuesUpdates", .flag(false))],
                source: "allowsBackgroundLocationUpdates: updates stop when the app is suspended; "
                    + "startUpdatingLocation(): delivery stops until the app runs again", .apple),
            optimistic: Bound(
                [Setting("suspendedAppQueuesUpdates", .flag(true))],
                source: "Handling location updates in the background: updates are enqueued for a suspended app",
                .apple)),
    ]
}
