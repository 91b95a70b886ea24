import Device
import Geometry
import SimulationCore
import Testing
import Traces

/// Closes a mutation-testing gap: at the default rate (4 fixes an hour, one per 900 s hold) a
/// reduced fix that redrew its displacement every time could not be told from one that held it.
@Suite("Reduced-accuracy displacement hold")
struct ReducedAccuracyHoldTests {
    @Test("reducedAccuracyDisplacedPosition: at 60 fixes an hour one displacement holds for 900 s, then a new one")
    func holdAtFasterRate() {
        var parameters = DeviceParameters()
        parameters.reducedFixesPerHour = 60
        var configuration = Setup.authorized(.authorizedAlways, precise: false, parameters: parameters)
        configuration.seed = 11
        var timeline = DeviceRun.testing(configuration)
        timeline.at(0, .user(.launchedApp))
        timeline.at(
            1,
            .app(
                .startedLocationUpdates(
                    LocationUpdateOptions(allowsBackgroundLocationUpdates: true, pausesLocationUpdatesAutomatically: false))))
        timeline.at(10, .user(.lockedScreen))
        var delivered: [Fix] = []
        // The device stands still: every change of position is a change of displacement.
        for second in stride(from: 20.0, to: 2000, by: 10) { delivered += timeline.record(second).deliveries }
        let seconds = delivered.map { $0.timestamp.seconds(since: timeline.start) }
        #expect(seconds.first == 20)
        #expect(seconds.count >= 30)
        let first = delivered.filter { $0.timestamp.seconds(since: timeline.start) < 920 }
        let second = delivered.filter {
            (920..<1820).contains($0.timestamp.seconds(since: timeline.start))
        }
        #expect(first.count == 15)
        #expect(second.count == 15)
        #expect(Set(first.map(\.latitude)).count == 1 && Set(first.map(\.longitude)).count == 1)
        #expect(Set(second.map(\.latitude)).count == 1 && Set(second.map(\.longitude)).count == 1)
        #expect(first.first?.latitude != second.first?.latitude)
    }
}
