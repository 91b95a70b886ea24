import Device
import Testing
import TestSupport

@testable import Scenarios

/// The region calibration (issue 31 §5): the synthetic replay of Radius Networks' field test and
/// of the exit-overshoot reports, against their published figures.
@Suite("Calibration: region events from the physical crossing")
struct RegionExitExperimentTests {
    /// The field test's ~100 trials in the fast tier (`Calibration.figures`' own count); ten
    /// times as many in the slow tier.
    static let trials = TestTier.isSlow ? 1_000 : 100

    @Test("every asserted region figure is within its tolerance of the published one")
    func calibrated() {
        // Through the suite's entry point, which `tracesim calibrate` prints.
        let figures =
            TestTier.isSlow
            ? RegionExitExperiment.figures(seed: 31, trials: Self.trials)
            : Calibration.figures(seed: 31).filter { $0.experiment == RegionExitExperiment.experiment }
        let asserted = figures.filter { $0.tolerance != nil }
        #expect(asserted.count == 3)
        for figure in asserted {
            #expect(figure.withinTolerance == true, "\(figure.quantity): \(figure.simulated) vs \(figure.published ?? .nan)")
        }
    }

    @Test("Apple's 3-5 minute average, the pessimistic end, fails the field figure: the calibration can fail")
    func pessimisticLatencyFailsTheFieldFigure() {
        var apple = DeviceParameters()
        apple.regionLatencyMinimumSeconds = 180
        apple.regionLatencyMaximumSeconds = 300
        let figures = RegionExitExperiment.figures(seed: 31, trials: 20, parameters: apple)
        let arrivals = figures.first { $0.quantity.hasPrefix("arrival reported within 30 s") && $0.tolerance != nil }
        #expect(arrivals?.simulated == 0)
        #expect(arrivals?.withinTolerance == false)
    }

    @Test("a miss rate of 0 reports every crossing, of 1 none")
    func missRateEnds() {
        var never = DeviceParameters()
        never.regionMissProbability = 0
        let all = RegionExitExperiment.run(
            trials: 20, speed: RegionExitExperiment.walkingMetersPerSecond, seed: 5, parameters: never)
        #expect(all.allSatisfy { $0.arrival != nil && $0.exit != nil && $0.missed == 0 })
        var always = DeviceParameters()
        always.regionMissProbability = 1
        let none = RegionExitExperiment.run(
            trials: 20, speed: RegionExitExperiment.walkingMetersPerSecond, seed: 5, parameters: always)
        #expect(none.allSatisfy { $0.arrival == nil && $0.exit == nil && $0.missed == 2 })
    }

    @Test("the same seed gives the same figures; another seed other trials")
    func deterministic() {
        let first = RegionExitExperiment.figures(seed: 9, trials: 20)
        #expect(first.count == 9)
        #expect(first == RegionExitExperiment.figures(seed: 9, trials: 20))
        let speed = RegionExitExperiment.walkingMetersPerSecond
        #expect(
            RegionExitExperiment.run(trials: 20, speed: speed, seed: 9, parameters: DeviceParameters())
                != RegionExitExperiment.run(trials: 20, speed: speed, seed: 10, parameters: DeviceParameters()))
    }
}
