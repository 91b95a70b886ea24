import Engine
@testable import Scenarios
import SimulationCore
import TestSupport
import Testing
import Traces

/// `TraceMeasures` says it is thread-safe because a matrix replays one trace's runs on several
/// threads at once, each asking the shared measures for its grace's covered seconds. Fast tier:
/// one trace, a few hundred cached look-ups and a handful of measurements.
@Suite("Trace measures shared across threads")
struct TraceMeasuresConcurrencyTests {
    /// A Takeout export with 212 unobserved spans, so each grace leaves out different windows.
    private static let june = "gpsbabel/2013_JUNE.json"

    /// The graces of the presets (300) and ones no preset uses, including 0 and a negative one
    /// (read as 0), so two keys of the cache hold the same answer.
    private static let graces: [Double] = [300, 0, 17.5, 900, 5, 25, 1800, -5]

    /// One task's answer for one grace: the covered seconds and where each left-out window starts.
    private typealias Answer = (grace: Double, covered: Double, leftOut: [SimInstant])

    @Test("Tasks asking one instance for several graces at once each get the single-threaded answer")
    func concurrentAnswersEqualSingleThreadedOnes() async throws {
        let trace = try TraceImporter.load(path: Repository.trace(Self.june))
        var expected: [Double: (covered: Double, leftOut: [SimInstant])] = [:]
        for grace in Self.graces {
            let measured = UnobservedTime(trace, graceSeconds: grace)
            expected[grace] = (
                TraceReference(trace, kept: Recorder(), unobserved: measured).coveredSeconds,
                measured.leftOut.map(\.start)
            )
        }
        // Every grace gives a different covered time but 0 and -5, so an answer handed to the
        // wrong grace would show.
        #expect(Set(expected.values.map(\.covered)).count == Self.graces.count - 1, "\(expected.mapValues(\.covered))")

        let tasks = 8
        let rounds = 4
        // Several fresh instances, so the tasks race on an empty cache each time, not only on
        // a filled one.
        for round in 0..<rounds {
            let measures = TraceMeasures(trace)
            let answers = await withTaskGroup(of: [Answer].self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        var answers: [Answer] = []
                        // Each task walks the graces from its own starting point, ten times over.
                        for step in 0..<(10 * Self.graces.count) {
                            let grace = Self.graces[(step + task + round) % Self.graces.count]
                            answers.append(
                                (
                                    grace, measures.coveredSeconds(graceSeconds: grace),
                                    measures.unobserved(graceSeconds: grace).leftOut.map(\.start)
                                ))
                        }
                        return answers
                    }
                }
                var all: [Answer] = []
                for await answers in group { all += answers }
                return all
            }
            #expect(answers.count == tasks * 10 * Self.graces.count)
            for answer in answers {
                let want = try #require(expected[answer.grace])
                #expect(answer.covered == want.covered, "round \(round), grace \(answer.grace)")
                #expect(answer.leftOut == want.leftOut, "round \(round), grace \(answer.grace)")
            }
        }
    }
}
