import Device
import Foundation
@testable import Scenarios
import SimulationCore
import Testing
import Traces

/// Issue 16 §2 at the verdict level: on the bundled drive, a When-In-Use app whose departure
/// starts background updates inside the grace after the lock keeps tracking (a session forms
/// while in use); one locked long before is suspended while parked and misses the drive.
@Suite("Lifecycle verdicts on a real drive")
struct LifecycleVerdictTests {
    static let trace = PresetTests.trace

    static func whenInUse(lockAt seconds: Double) throws -> ScenarioRun {
        var scenario = Scenario(name: "wiu-lock", summary: "", factRows: [])
        scenario.device.authorization.storedStatus = .authorizedWhenInUse
        scenario.device.authorization.motionStatus = .authorized
        scenario.timeline = [.init(.seconds(seconds), .user(.lockedScreen))]
        return try ScenarioRunner.run(trace, scenario)
    }

    @Test("backgroundSessionFormsWhileInUse: locked 3 s before the departure the drive is tracked; 60 s before, it is not")
    func lockNearDeparture() throws {
        let ideal = try ScenarioRunner.run(Self.trace, try #require(Scenario.preset(named: "ideal")))
        let departure = try #require(ideal.recorder.motionTransitions.first { $0.state == .moving })
        let departureSeconds = departure.time.seconds(since: Self.trace.fixes[0].timestamp)
        let inGrace = try Self.whenInUse(lockAt: departureSeconds - 3)
        let longBefore = try Self.whenInUse(lockAt: departureSeconds - 60)
        let idealCount = Double(ideal.recorder.acceptedFixCount)
        #expect(Double(inGrace.recorder.acceptedFixCount) > 0.9 * idealCount, "\(inGrace.recorder.acceptedFixCount)")
        #expect(Double(longBefore.recorder.acceptedFixCount) < 0.5 * idealCount, "\(longBefore.recorder.acceptedFixCount)")
        #expect(longBefore.lifecycle.contains { $0.phase == .suspended })
    }
}
