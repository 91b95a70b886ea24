import Device
@testable import Permissions
import Testing

/// The requester's deferral reasons: a `CLServiceSession` diagnostic where one matches the
/// rule, the rule's own name and summary for every other rule of the catalogue.
@Suite("Bucket requester: deferral reasons")
struct DoorstepReasonTests {
    /// The rules reported by name when the list was kept by hand.
    static let reportedByNameBeforeDerivation = [
        "servicesOnRestoresPreviousState", "whenInUseRequestOnlyFromNotDetermined", "alwaysUpgradeFromWhenInUse",
        "firstAlwaysRequestFollowsProfile", "deferredUpgradePrompt", "deferredUpgradePromptWaitsForUnlock",
        "deferredUpgradeHoldsTriggeringEvent", "alwaysRequestWhenAlwaysDoesNothing", "alwaysRequestResetsWhenNotDetermined",
        "allowOnceLapsesWhenNotInUse", "defaultAccuracyReduced", "temporaryFullAccuracyNeedsPurposeKey",
        "temporaryFullAccuracyFailsInBackground", "temporaryFullAccuracyLastsUntilRelaunch", "temporaryFullAccuracyNotNeededWhenPrecise",
        "motionRequestPrompts", "motionUnavailableWithoutHardware", "bluetoothPromptsOnCentralManager",
        "inUseIncludesCutoffAfterForeground", "backgroundSessionKeepsInUse", "startingUpdatesInBackgroundFails",
        "backgroundUpdatesWithoutModeCrash", "suspendedAppsReceiveNothing", "forceQuitStopsEverything", "forceQuitRelaunchOnLocationEvents",
        "forceQuitNoRelaunchOnIOS26", "backgroundAppRefreshOffStopsWakes", "lowPowerModeStopsWakes", "locationEventsWaitForFirstUnlock",
        "memoryPressureKillsInBackground", "wakeWindowAfterRelaunch", "backgroundAppSuspendedAfterGrace",
        "suspendedAppGetsNoMotionOrTimers", "resumedAppGetsCurrentMotion", "wokenAppSuspendedAfterWakeWindow", "suspendedAppUpdatesQueued",
        "receiverRunsOnlyForRunningUpdates", "backgroundSessionFormsWhileInUse", "noDeliveryWithoutAuthorization", "updatesMustBeRunning",
        "whenInUseStopsAfterCutoff", "alwaysContinuesInBackground", "automaticPause", "reducedAccuracyFewFixesPerHour",
        "reducedAccuracyDisplacedPosition", "regionLimit", "regionRequiresAuthorization", "regionUnavailableWithReducedAccuracy",
        "regionHysteresis", "regionEventsWhenNotInUseNeedAlways", "regionEventLatency", "reducedAccuracyAppliesToEveryService",
        "significantChangeService", "visitService", "motionDeliversRecordedActivity", "motionDerivedFromSpeed",
        // Issue 30.
        "deliveredLocationsAsReceiverReports", "severalLocationsPerCall",
        // Issue 31.
        "regionCrossingMissed",
    ]

    @Test("the rules reported by name are derived from the catalogue and are today's 59")
    func rulesReportedByName() {
        #expect(DoorstepAI.rulesReportedByName.map(\.rawValue).sorted() == Self.reportedByNameBeforeDerivation.sorted())
        #expect(DoorstepAI.rulesReportedByName.count == 59)
        #expect(DoorstepAI.serviceSessionReasons.count + 59 == DeviceRule.allCases.count)
    }

    @Test("a rule without a diagnostic reports its own name and catalogue summary", arguments: DeviceRule.allCases)
    func reasonByName(rule: DeviceRule) {
        let reason = DoorstepAI.reason(for: rule)
        if DoorstepAI.serviceSessionReasons.contains(where: { $0.rule == rule }) {
            #expect(reason.code != rule.rawValue)
        } else {
            #expect(reason == DoorstepDeferralReason(code: rule.rawValue, message: rule.info.summary))
        }
    }
}
