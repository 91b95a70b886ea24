import Device
import Foundation
import Scenarios
import SimulationCore
import Testing
import TraceSimCoreLocation
import Traces

/// A When-In-Use tracker that starts standard updates at launch (without background
/// updates), holding a background activity session or not.
private final class SessionApp {
    var session: CLBackgroundActivitySession?

    init(holdsSession: Bool) {
        SimulationHost.current?.perform(.startedLocationUpdates(LocationUpdateOptions()))
        if holdsSession { session = CLBackgroundActivitySession() }
    }
}

private func lastDelivery(_ outcome: ReplayOutcome) -> Double? { outcome.deliveryTimes.last.map(seconds) }

@Suite("Sessions")
struct SessionTests {
    @Test("a background activity session keeps a When-In-Use app collecting after the lock (wheninuse-locked)")
    func backgroundSessionKeepsCollecting() throws {
        let scenario = try preset("wheninuse-locked")
        let without = replayApp(scenario) { SessionApp(holdsSession: false) }
        let with = replayApp(scenario) { SessionApp(holdsSession: true) }
        // Without: nothing after the 70 s cutoff that follows the lock at 60 s (the drive's
        // fixes are one a second from 0 s).
        #expect(lastDelivery(without) == 129)
        #expect(without.deliveryTimes.count == 130)
        // With: every fix of the drive, to the last.
        #expect(with.deliveryTimes.count == drive.fixes.count)
        #expect(with.deliveryTimes.last == drive.fixes.last?.timestamp)
    }

    @Test("invalidating the session ends it: the app is cut off after the lock again")
    func invalidatedSessionNoLongerKeepsTheAppInUse() throws {
        let outcome = replayApp(try preset("wheninuse-locked")) {
            let app = SessionApp(holdsSession: true)
            app.session?.invalidate()
            return app
        }
        #expect(lastDelivery(outcome) == 129)
    }

    @Test("releasing the session ends it, as invalidating does")
    func releasedSessionEnds() throws {
        let outcome = replayApp(try preset("wheninuse-locked")) {
            let app = SessionApp(holdsSession: true)
            app.session = nil
            return app
        }
        #expect(lastDelivery(outcome) == 129)
    }

    @Test(
        "a service session asks for what it requires when it can be asked",
        arguments: [
            (CLServiceSession.AuthorizationRequirement.none, AuthorizationStatus.notDetermined, [PromptKind]()),
            (.whenInUse, .notDetermined, [.location]),
            (.whenInUse, .authorizedWhenInUse, []),
            (.always, .notDetermined, [.locationForAlways]),
            (.always, .authorizedWhenInUse, [.alwaysUpgrade]),
            (.always, .authorizedAlways, []),
        ])
    func serviceSessionRequests(
        requirement: CLServiceSession.AuthorizationRequirement, status: AuthorizationStatus, prompts: [PromptKind]
    ) throws {
        var scenario = try preset("always-precise")
        scenario.device.authorization.storedStatus = status
        scenario.timeline = []
        let outcome = replayApp(scenario) { CLServiceSession(authorization: requirement) }
        let shown = outcome.prompts.filter { $0.outcome == .shown }
        #expect(shown.map(\.kind) == prompts)
        #expect(shown.allSatisfy { seconds($0.time) == 0 })
    }

    @Test("a service session with a purpose key asks for temporary full accuracy when accuracy is reduced")
    func serviceSessionAsksForFullAccuracy() throws {
        var scenario = try preset("always-approximate")
        scenario.timeline = []
        scenario.device.infoPlist.temporaryFullAccuracyPurposes = ["Navigation"]
        let outcome = replayApp(scenario) {
            CLServiceSession(authorization: .whenInUse, fullAccuracyPurposeKey: "Navigation")
        }
        #expect(outcome.prompts.filter { $0.outcome == .shown }.map(\.kind) == [.temporaryFullAccuracy(purpose: "Navigation")])
    }
}
