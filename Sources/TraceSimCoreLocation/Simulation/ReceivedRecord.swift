import Engine
import Geometry
import SimulationCore
import Traces

/// What an app that keeps no record of its own is measured on: everything the phone handed
/// it. Every location delivered (standard or significant change) counts as accepted and
/// recorded, the odometer sums the distances between them, and the motion state follows the
/// activity updates the app received (any moving activity is moving, stationary is
/// stationary), so an app without motion activity never departs.
///
/// An app that filters or uploads on its own terms reports that instead by adopting
/// `RecordingApp`.
package struct ReceivedRecord {
    package private(set) var recorder = Recorder()
    package private(set) var odometerMeters = 0.0
    private var last: Coordinate?
    private var motionState: MotionStateMachine.State?

    mutating func receive(_ fix: Fix) {
        recorder.fixDelivered()
        recorder.accepted(fix)
        recorder.recordedLastAccepted()
        let here = Coordinate(latitude: fix.latitude, longitude: fix.longitude)
        if let last { odometerMeters += Geodesy.distanceMeters(last, here) }
        last = here
    }

    mutating func receive(_ sample: MotionSample, at instant: SimInstant) {
        let state: MotionStateMachine.State
        if sample.activity.contains(.stationary) {
            state = .stationary
        } else if sample.activity.isDisjoint(with: [.walking, .running, .cycling, .automotive]) {
            return
        } else {
            state = .moving
        }
        guard state != motionState else { return }
        motionState = state
        recorder.motionChanged(to: state, at: instant)
    }
}
