extension DeviceParameters {
    /// Every parameter, in declaration order: what `tracesim rules` prints and what
    /// `device.parameters` in DEVICE.json and scenario files may set. A property of
    /// `DeviceParameters` missing here fails `RuleCatalogueTests`.
    public static var descriptors: [DeviceParameterDescriptor] {
        [
            .number(
                "whenInUseLockCutoffSeconds", \.whenInUseLockCutoffSeconds, unit: "s",
                "When-In-Use stays in use this long after lock or backgrounding",
                source: "d 1 (product default; Apple: a few seconds, observed 13 s)", .product),
            .profile(
                "osProfile", \.osProfile, "iOS generation: ios13, ios14-17, ios18, ios26 (current = newest)",
                source: "d 17", .product),
            .optionalFlag(
                "regionRelaunchAfterForceQuit", \.regionRelaunchAfterForceQuit,
                "a region event relaunches a force-quit Always app; profile: yes up to ios18, no on ios26",
                source: "a4 #13, d 6; Apple forums 826964 (2026)", .observed),
            .optionalFlag(
                "significantChangeRelaunchAfterForceQuit", \.significantChangeRelaunchAfterForceQuit,
                "a significant change relaunches a force-quit Always app; profile: yes up to ios18, no on ios26",
                source: "a4 #13, d 6; Apple forums 826964 (2026)", .observed),
            .flag(
                "lowPowerMode", \.lowPowerMode,
                "Low Power Mode: background activity paused, so no region, significant-change or visit wakes",
                source: "a4 #15; ProcessInfo.isLowPowerModeEnabled; a6 #8", .appleArchived),
            .flag(
                "backgroundAppRefresh", \.backgroundAppRefresh,
                "Background App Refresh on; off, region, significant-change and visit events wake nothing",
                source: "a6 #8, d 7 (archived guide only)", .appleArchived),
            .flag(
                "startsBeforeFirstUnlock", \.startsBeforeFirstUnlock,
                "restarted and not yet unlocked: no region, significant-change or visit events until unlocked",
                source: "a4 #14, a6 #10, d 16", .apple),
            .number(
                "memoryPressureKillsPerHour", \.memoryPressureKillsPerHour, unit: "per hour", in: 0...3_600,
                "system kills of a background or suspended app, seeded; 0 = off",
                source: "a4 #12; default 0; band 0.05/h (iAPS #2017 MetricKit: 1 kill in 20 h) "
                    + "and 1/24 h (Transistorsoft: terminated after about 24 h)", .simulator),
            .number(
                "wakeWindowSeconds", \.wakeWindowSeconds, unit: "s",
                "background run time after a region or significant-change wake",
                source: "a4 #11; Apple forums 815618 (DTS: from immediately after return up to about 30 s, "
                    + "older APIs longer)", .appleArchived),
            .number(
                "backgroundSuspensionGraceSeconds", \.backgroundSuspensionGraceSeconds, unit: "s",
                "background run time of an app holding no service before suspension",
                source: "a4 #2; Apple, Extending your app's background execution time (five seconds)", .apple),
            .integer(
                "suspendedLocationQueueLimit", \.suspendedLocationQueueLimit, unit: "fixes", in: 0...100_000,
                "location updates kept for a suspended app until it runs again (newest kept)",
                source: "a4 #2 (queued, no bound documented)", .simulator),
            .number(
                "assumedHorizontalAccuracyMeters", \.assumedHorizontalAccuracyMeters, unit: "m", in: 1...100_000,
                "horizontal accuracy reported for a fix whose source gave none (an assumption)",
                source: "CLLocation horizontalAccuracy (negative = invalid; a receiver fix never reports 0 m, "
                    + "so at least 1 m); bundled iPhone traces 5 m open road, 30-50 m urban", .simulator),
            .number(
                "courseMinimumSpeedMetersPerSecond", \.courseMinimumSpeedMetersPerSecond, unit: "m/s",
                in: 0...1_000, "below this speed a derived course stays invalid (-1)",
                source: "CLLocation course (negative = invalid); threshold as motionWalkingSpeed", .simulator),
            .integer(
                "locationsPerDelivery", \.locationsPerDelivery, unit: "fixes", in: 1...1_000,
                "locations handed over in one didUpdateLocations call",
                source: "Apple locationManager(_:didUpdateLocations:): more than one location when delivery lags",
                .apple),
            .number(
                "autoPauseAfterStationarySeconds", \.autoPauseAfterStationarySeconds, unit: "s",
                "stillness before pausesLocationUpdatesAutomatically pauses",
                source: "a4 #7, a9", .observed),
            .number(
                "autoPauseStationaryRadiusMeters", \.autoPauseStationaryRadiusMeters, unit: "m",
                "wander allowed while counting as still",
                source: "a4 #7", .simulator),
            .number(
                "reducedFixesPerHour", \.reducedFixesPerHour, unit: "per hour",
                "reduced-accuracy fixes delivered per hour at most",
                source: "a2 #3, a2 #4", .wwdc),
            .number(
                "reducedHorizontalAccuracyMeters", \.reducedHorizontalAccuracyMeters, unit: "m",
                "accuracy reported by a reduced fix",
                source: "a2 #5", .observed),
            .number(
                "reducedDisplacementMinimumMeters", \.reducedDisplacementMinimumMeters, unit: "m",
                "smallest displacement of a reduced fix",
                source: "a2 #3", .apple),
            .number(
                "reducedDisplacementMaximumMeters", \.reducedDisplacementMaximumMeters, unit: "m",
                "largest displacement of a reduced fix",
                source: "a2 #3", .apple),
            .number(
                "reducedDisplacementHoldSeconds", \.reducedDisplacementHoldSeconds, unit: "s",
                "how long one displacement holds",
                source: "a2 #4, a2 #6", .simulator),
            .integer(
                "maximumMonitoredRegions", \.maximumMonitoredRegions, unit: "regions", in: 1...1_000,
                "regions one app may monitor",
                source: "a6 #1", .apple),
            .number(
                "regionCushionMeters", \.regionCushionMeters, unit: "m",
                "distance past the radius (and past where an entry is decided) before an exit",
                source: "a6 #4; iOS 18.5/26.3.1 exits 50-100 m past the radius (transistorsoft "
                    + "react-native-background-geolocation #2353, #2597); older: 200 m (cordova #541, 2017), "
                    + "1.5 x radius (owntracks/ios #675)", .observed),
            .number(
                "regionDwellSeconds", \.regionDwellSeconds, unit: "s", "time past the boundary before a crossing",
                source: "a6 #4", .appleArchived),
            .number(
                "regionMinimumEffectiveRadiusMeters", \.regionMinimumEffectiveRadiusMeters, unit: "m",
                "smaller regions behave as this large",
                source: "a6 #6", .sdk),
            .number(
                "regionEntryCushionMeters", \.regionEntryCushionMeters, unit: "m",
                "depth inside the effective boundary before an entry (at most half the radius)",
                source: "a6 #4 (the cushion on both sides)", .appleArchived),
            .number(
                "regionLatencyMinimumSeconds", \.regionLatencyMinimumSeconds, unit: "s",
                "shortest delay of a region event after the dwell",
                source: "a6 #5, d 8 (the uniform draw's lower end)", .observed),
            .number(
                "regionLatencyMaximumSeconds", \.regionLatencyMaximumSeconds, unit: "s",
                "longest delay of a region event after the dwell (uniform draw)",
                source: "Radius Networks 2015 (nearly every time within 30 s of the crossing) with #2353 "
                    + "(exit within 100 m); pessimistic: Apple startMonitoring(for:) 3-5 min on average",
                .observed),
            .number(
                "regionMissProbability", \.regionMissProbability, unit: "", in: 0...1,
                "share of region crossings never reported, seeded per crossing; 0 = none missed",
                source: "Radius Networks 2015 (third-party app: 93 of about 100); pessimistic: Shevchenko & "
                    + "Reips 2024, doi 10.3758/s13428-023-02213-2 (82.5 % of 360 notified)", .observed),
            .number(
                "deferredUpgradeEventHoldSeconds", \.deferredUpgradeEventHoldSeconds, unit: "s",
                "the event behind the deferred upgrade prompt is delivered if Always is granted this soon",
                source: "a1 #10, d 3 (WWDC19 705: kept for a limited time; length undocumented)", .simulator),
            .number(
                "allowOnceLapseSeconds", \.allowOnceLapseSeconds, unit: "s",
                "Allow Once survives this long after the app stops being in use",
                source: "a1 #12, d 2 (Apple: when no longer in use)", .apple),
            .number(
                "significantChangeDistanceMeters", \.significantChangeDistanceMeters, unit: "m",
                "movement between significant-change events",
                source: "a5 #5", .apple),
            .number(
                "significantChangeIntervalSeconds", \.significantChangeIntervalSeconds, unit: "s",
                "minimum time between significant-change events",
                source: "a5 #5", .apple),
            .number(
                "visitRadiusMeters", \.visitRadiusMeters, unit: "m", "movement allowed within one visited place",
                source: "d 15", .simulator),
            .number(
                "visitArrivalDwellSeconds", \.visitArrivalDwellSeconds, unit: "s",
                "time at a place before the arrival is reported",
                source: "d 15", .simulator),
            .number(
                "motionOnsetLatencyMinimumSeconds", \.motionOnsetLatencyMinimumSeconds, unit: "s",
                "shortest lag of a derived activity change",
                source: "a7 #4", .observed),
            .number(
                "motionOnsetLatencyMaximumSeconds", \.motionOnsetLatencyMaximumSeconds, unit: "s",
                "longest lag of a derived activity change",
                source: "a7 #4", .observed),
            .number(
                "motionStopFlickerProbability", \.motionStopFlickerProbability, unit: "", in: 0...1,
                "share of stop samples also reading automotive",
                source: "a7 #4", .observed),
            .number(
                "motionWalkingSpeedMetersPerSecond", \.motionWalkingSpeedMetersPerSecond, unit: "m/s",
                "derived walking from this speed",
                source: "a7 #4", .simulator),
            .number(
                "motionRunningSpeedMetersPerSecond", \.motionRunningSpeedMetersPerSecond, unit: "m/s",
                "derived running from this speed",
                source: "a7 #4", .simulator),
            .number(
                "motionAutomotiveSpeedMetersPerSecond", \.motionAutomotiveSpeedMetersPerSecond, unit: "m/s",
                "derived automotive from this speed",
                source: "a7 #4", .simulator),
            .number(
                "significantChangeDistanceMedianMeters", \.significantChangeDistanceMedianMeters, unit: "m",
                "median movement between significant-change events (log-normal draw, floor above)",
                source: "Long Weekend Mobile 2010 (8 phones, 12 days, 3 cities): 750 m triggers 50 %", .observed),
            .number(
                "significantChangeDistanceSpread", \.significantChangeDistanceSpread, unit: "", in: 0...5,
                "sigma of ln(trigger distance); 0 = always the median (or the floor)",
                source: "Long Weekend Mobile 2010: 2,500 m triggers 95 %; ln(2500/750)/1.645", .observed),
            .number(
                "significantChangeHorizontalAccuracyMeters", \.significantChangeHorizontalAccuracyMeters,
                unit: "m", in: 1...100_000,
                "accuracy of a significant-change location (cell or Wi-Fi grade), displaced to match",
                source: "a5 #5 (network positioning); Long Weekend Mobile 2010 (accurate to 500 m); "
                    + "68 % circle: Android Location.getAccuracy, assumed", .observed),
            .flag(
                "suspendedAppQueuesUpdates", \.suspendedAppQueuesUpdates,
                "a suspended app's running updates keep the receiver on and are queued; false = they stop",
                source: "Apple allowsBackgroundLocationUpdates and startUpdatingLocation() (stop while "
                    + "suspended) vs Handling location updates in the background (enqueued); see Device.md",
                .apple),
            .flag(
                "lowPowerModeStopsWakes", \.lowPowerModeStopsWakes,
                "with lowPowerMode on, region, significant-change and visit events wake or relaunch nothing",
                source: "a4 #15, a6 #8 (archived Apple guide only; current docs silent)", .appleArchived),
            .optionalFlag(
                "firstAlwaysRequestGrantsProvisionalAlways", \.firstAlwaysRequestGrantsProvisionalAlways,
                "Allow While Using on a first Always request grants provisional Always; profile: ios13 only",
                source: "a1 #9, d 17 (Apple's iOS 13-era page; current page silent)", .product),
        ]
    }
}
