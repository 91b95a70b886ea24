import Scenarios
import Testing

@testable import Fleet

@Suite("Tuning: the Pareto front and the chosen row")
struct TuningFrontTests {
    @Test("two objectives: dominated rows list every row that beats them; the chosen row is best on the first")
    func twoObjectives() {
        // (recordedFixes max, gpsOnSeconds min)
        let values: [[Double?]] = [[100, 50], [90, 40], [100, 60], [80, 45], [100, 50]]
        let (standings, chosen) = Tuning.front(values: values, directions: [.max, .min], failed: [[], [], [], [], []])
        #expect(standings.map(\.isOnFront) == [true, true, false, false, true])
        #expect(standings[2].dominatedBy == [1, 5])
        #expect(standings[3].dominatedBy == [2])
        // Rows 1 and 5 are equal: neither dominates, the earlier is chosen.
        #expect(chosen == 0)
    }

    @Test("one objective: the front is every row tied for the best")
    func oneObjective() {
        let (standings, chosen) = Tuning.front(
            values: [[3], [1], [1], [2]], directions: [.min], failed: [[], [], [], []])
        #expect(standings.map(\.isOnFront) == [false, true, true, false])
        #expect(standings[0].dominatedBy == [2, 3, 4])
        #expect(chosen == 1)
    }

    @Test("three objectives: ties on the first are broken by the next")
    func threeObjectives() {
        let values: [[Double?]] = [[10, 5, 1], [10, 4, 9], [10, 4, 2], [9, 1, 1]]
        let (standings, chosen) = Tuning.front(
            values: values, directions: [.max, .min, .min], failed: [[], [], [], []])
        #expect(standings.map(\.isOnFront) == [true, false, true, true])
        #expect(standings[1].dominatedBy == [3])
        #expect(chosen == 2)
    }

    @Test("rows failing a constraint are off the front, say why, and neither dominate nor are dominated")
    func constraints() {
        let bound = Tuning.Constraint(metric: .distanceRatio, comparison: .atLeast, bound: 0.95)
        let values: [[Double?]] = [[200, 10], [100, 20], [50, 30]]
        let (standings, chosen) = Tuning.front(values: values, directions: [.max, .min], failed: [[bound], [], []])
        #expect(standings[0].failed == [bound] && !standings[0].isOnFront && standings[0].dominatedBy.isEmpty)
        #expect(standings[1].isOnFront)
        #expect(standings[2].dominatedBy == [2])
        #expect(chosen == 1)
        let none = Tuning.front(values: values, directions: [.max, .min], failed: [[bound], [bound], [bound]])
        #expect(none.chosen == nil && none.standings.allSatisfy { !$0.isOnFront })
    }

    @Test("an absent value is worse than any value")
    func absent() {
        let (standings, chosen) = Tuning.front(values: [[nil], [5]], directions: [.min], failed: [[], []])
        #expect(standings[0].dominatedBy == [2] && chosen == 1)
    }
}
