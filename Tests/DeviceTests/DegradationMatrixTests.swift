import Device
import SimulationCore
import Testing
import Traces

/// Reproduces the permission-level degradation matrix (fact sheet a8) row by row: one probe
/// timeline per row, and what each service gave.
@Suite("Degradation matrix a8")
struct DegradationMatrixTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var name: String
        var status: AuthorizationStatus
        var precise = true
        var profile = OSBehaviourProfile.current
        var provisional = false
        var allowOnce = false
        var servicesOff = false
        var motionDenied = false
        var backgroundUpdates = false
        // Expectations.
        var foreground: Bool
        var backgroundContinuous: Bool
        var regionsWhenNotInUse: Bool
        var wakeOrRelaunch: Bool
        var reduced = false
        var motion = true

        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "Always + Precise", status: .authorizedAlways, backgroundUpdates: true,
            foreground: true, backgroundContinuous: true, regionsWhenNotInUse: true, wakeOrRelaunch: true),
        Row(
            name: "Always + Approximate", status: .authorizedAlways, precise: false, backgroundUpdates: true,
            foreground: true, backgroundContinuous: true, regionsWhenNotInUse: false, wakeOrRelaunch: true, reduced: true),
        Row(
            name: "Provisional Always (ios13)", status: .authorizedAlways, profile: .ios13, provisional: true,
            foreground: true, backgroundContinuous: false, regionsWhenNotInUse: false, wakeOrRelaunch: false),
        Row(
            name: "When-In-Use + background updates started in the foreground", status: .authorizedWhenInUse,
            backgroundUpdates: true,
            foreground: true, backgroundContinuous: true, regionsWhenNotInUse: true, wakeOrRelaunch: false),
        Row(
            name: "When-In-Use without background updates", status: .authorizedWhenInUse,
            foreground: true, backgroundContinuous: false, regionsWhenNotInUse: false, wakeOrRelaunch: false),
        Row(
            name: "Allow Once", status: .authorizedWhenInUse, allowOnce: true,
            foreground: true, backgroundContinuous: false, regionsWhenNotInUse: false, wakeOrRelaunch: false),
        Row(
            name: "Denied", status: .denied,
            foreground: false, backgroundContinuous: false, regionsWhenNotInUse: false, wakeOrRelaunch: false, motion: true),
        Row(
            name: "Restricted", status: .restricted,
            foreground: false, backgroundContinuous: false, regionsWhenNotInUse: false, wakeOrRelaunch: false),
        Row(
            name: "Location Services off", status: .authorizedAlways, servicesOff: true, backgroundUpdates: true,
            foreground: false, backgroundContinuous: false, regionsWhenNotInUse: false, wakeOrRelaunch: false),
        Row(
            name: "Motion denied", status: .authorizedAlways, motionDenied: true, backgroundUpdates: true,
            foreground: true, backgroundContinuous: true, regionsWhenNotInUse: true, wakeOrRelaunch: true, motion: false),
    ]

    /// Launch at 0 with the row's permissions, start every service, lock at 60 s, drive 2 km
    /// north at 300 s, get terminated by the system at 500 s, drive home at 900 s.
    static func probe(_ row: Row) -> DeviceRun {
        var configuration = Device.Configuration()
        configuration.parameters = Setup.immediateRegions
        configuration.parameters.osProfile = row.profile
        configuration.authorization.storedStatus = row.status
        configuration.authorization.isPrecise = row.precise
        configuration.authorization.isProvisionalAlways = row.provisional
        configuration.authorization.isDeferredUpgradePending = row.provisional
        configuration.authorization.isAllowOnce = row.allowOnce
        configuration.authorization.isLocationServicesEnabled = !row.servicesOff
        configuration.authorization.motionStatus = row.motionDenied ? .denied : .authorized
        var timeline = DeviceRun.testing(configuration, user: Setup.user([:]))
        timeline.at(0, .user(.launchedApp))
        timeline.at(
            1,
            .app(
                .startedLocationUpdates(
                    LocationUpdateOptions(
                        allowsBackgroundLocationUpdates: row.backgroundUpdates, pausesLocationUpdatesAutomatically: false))))
        timeline.at(1, .app(.startedMonitoring(MonitoredRegion(identifier: "home", center: DeviceRun.origin, radiusMeters: 150))))
        timeline.at(1, .app(.startedSignificantChanges))
        timeline.at(1, .app(.startedMotionUpdates))
        for second in stride(from: 2.0, through: 30, by: 1) { timeline.record(second, north: 0, speed: 0) }
        timeline.at(60, .user(.lockedScreen))
        for second in stride(from: 200.0, through: 260, by: 1) { timeline.record(second, north: 0, speed: 0) }
        for second in stride(from: 300.0, through: 400, by: 1) { timeline.record(second, north: 2000, speed: 0) }
        timeline.at(500, .system(.terminatedApp))
        for second in stride(from: 900.0, through: 1000, by: 1) { timeline.record(second, north: 0, speed: 0) }
        return timeline
    }

    @Test("each row of a8 degrades as documented", arguments: rows)
    func row(_ row: Row) {
        let timeline = Self.probe(row)
        let foreground = timeline.actions(from: 2, to: 30)
        #expect(!foreground.deliveries.isEmpty == row.foreground, "foreground updates")
        let background = timeline.actions(from: 200, to: 260)
        let continues =
            !background.deliveries.isEmpty
            || (!background.drops.isEmpty && background.drops.allSatisfy { $0 == .reducedAccuracyFewFixesPerHour })
        #expect(
            continues == row.backgroundContinuous, "background continuous updates: \(background.drops.first.map(\.rawValue) ?? "delivered")"
        )
        let away = timeline.actions(from: 300, to: 400)
        #expect(away.contains(.regionEvent(identifier: "home", .exit)) == row.regionsWhenNotInUse, "regions when not in use")
        let home = timeline.actions(from: 900, to: 1000)
        let woke = home.contains { if case .appLaunched(_, inBackground: true) = $0 { true } else { false } }
        #expect(woke == row.wakeOrRelaunch, "wake or relaunch")
        let delivered = timeline.log.map(\.action).deliveries
        if row.foreground {
            #expect(delivered.allSatisfy { ($0.horizontalAccuracy == .meters(2500)) == row.reduced }, "accuracy")
        }
        let motionDelivered = timeline.log.contains { if case .deliverMotion = $0.action { true } else { false } }
        #expect(motionDelivered == row.motion, "motion activity")
    }

    @Test("provisional Always: the deferred upgrade prompt waits for an unlock, which the probe never makes")
    func provisionalPrompt() throws {
        let row = try #require(Self.rows.first { $0.provisional })
        var timeline = Self.probe(row)
        #expect(timeline.device.promptLog.filter { $0.outcome == .shown }.isEmpty)
        timeline.at(1001, .user(.unlockedScreen))
        #expect(timeline.device.promptLog.filter { $0.outcome == .shown }.map(\.kind) == [.deferredAlwaysUpgrade])
    }

    @Test("Allow Once has lapsed to notDetermined by the end of the probe")
    func allowOnceLapsed() throws {
        let row = try #require(Self.rows.first { $0.allowOnce })
        #expect(Self.probe(row).device.authorization.state.status == .notDetermined)
    }

    @Test("the same configuration and seed give the same actions")
    func deterministic() {
        for row in Self.rows {
            let first = Self.probe(row).log.map { "\($0.time.nanosecondsSinceEpoch) \($0.action)" }
            let second = Self.probe(row).log.map { "\($0.time.nanosecondsSinceEpoch) \($0.action)" }
            #expect(first == second, "\(row.name)")
        }
    }
}
