import Engine
import Geometry
import SimulationCore
import Testing
import Traces

/// The motion machine's fixed-size answer (issue 32): it reads like the array it replaced.
@Suite("Motion actions")
struct MotionActionsTests {
    @Test("an arrival makes three actions in order, inline")
    func arrivalHoldsThree() {
        var machine = MotionStateMachine(usesMotionActivity: false)
        let t0 = EngineHarness.time(0)
        let position = Coordinate(latitude: 37, longitude: -122)
        let still = Fix(
            timestamp: t0, latitude: position.latitude, longitude: position.longitude, horizontalAccuracy: .meters(5),
            speedMetersPerSecond: 0, provider: .gps)
        _ = machine.handle(.fixAccepted(still), at: t0)
        #expect(machine.handle(.paceChangedToMoving, at: t0) == [.removeStationaryRegion, .startGPS, .departed])
        let stop = machine.handle(.fixAccepted(still), at: t0)
        guard case .schedule(let timer, let due)? = stop.first else {
            Issue.record("expected a stop timer, got \(stop)")
            return
        }
        let arrival = machine.handle(.stopTimerFired(timer), at: due)
        #expect(arrival.count == MotionStateMachine.Actions.capacity)
        #expect(Array(arrival) == [.stopGPS, .monitorStationaryRegion(center: position, radiusMeters: 25), .arrived])
        #expect(arrival.description == Array(arrival).description)
        #expect(arrival != [.stopGPS, .arrived])
        // Three actions and a count, no buffer: the value is its own storage.
        #expect(MemoryLayout<MotionStateMachine.Actions>.size <= 3 * MemoryLayout<MotionStateMachine.Action>.stride + 1)
    }

    @Test("no actions is empty and equal to an empty literal")
    func empty() {
        let none = MotionStateMachine.Actions()
        #expect(none.isEmpty)
        #expect(none == [])
        #expect(none.first == nil)
    }
}
