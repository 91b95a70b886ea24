import SimulationCore
import Traces

/// Steps ahead for a run of locations (issue 32): the device records fixes while each step only
/// delivers its fix, so a driver can hand a client that takes runs all of them at once, and go
/// back when the client stops early. Not generic, so a replay of any client (in any module)
/// steps the phone in code compiled for the phone.
extension DeviceRun {
    /// Records fixes from `cursor.fixIndex` on, all before `limit`, and appends each step that
    /// delivered its one fix and did nothing else to `deliveries`, at most `length` of them.
    /// The first step that does anything else stops it, its actions left in `actions` (empty
    /// otherwise); the cursor stands after the last fix recorded. A driver that may go back
    /// calls it for one delivery first, keeps the run as it then stands (a client handles at
    /// least one delivery) and calls it again for the rest: kept in the driver's own variable,
    /// the copy is made once, where an `inout` optional took three copies of the whole run.
    /// - Returns: whether a step that did something else ended the run.
    @usableFromInline package mutating func recordDeliveries(
        _ fixes: [Fix], before limit: SimInstant, length: Int, into deliveries: inout [LocationDelivery],
        otherStep actions: inout [DeviceAction]
    ) -> Bool {
        var fixIndex = cursor.fixIndex
        while deliveries.count < length, fixIndex < fixes.endIndex, fixes[fixIndex].timestamp < limit {
            let time = fixes[fixIndex].timestamp
            fixIndex += 1
            cursor.fixIndex = fixIndex
            recordFix(fixes[fixIndex - 1], at: time, into: &actions)
            guard actions.count == 1, case .deliverLocation(let fix) = actions[0] else { return true }
            actions.removeLast()
            deliveries.append(LocationDelivery(fix: fix, time: time))
        }
        return false
    }

    /// Records the fixes from `cursor.fixIndex` up to `end` again, after the replay went back
    /// to the phone it kept after a run's first delivery (`Replay.recordRun`): each delivers its
    /// fix as it did the first time, and nothing else.
    @usableFromInline package mutating func recordDeliveriesAgain(
        _ fixes: [Fix], upTo end: Int, actions: inout [DeviceAction]
    ) {
        while cursor.fixIndex < end {
            cursor.fixIndex += 1
            let fix = fixes[cursor.fixIndex - 1]
            recordFix(fix, at: fix.timestamp, into: &actions)
            actions.removeAll(keepingCapacity: true)
        }
    }
}
