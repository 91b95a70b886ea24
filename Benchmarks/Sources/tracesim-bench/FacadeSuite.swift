import BenchmarkKit
import Device
import Engine
import Foundation
import Scenarios
import SimulationCore
import TraceSimCoreLocation
import Traces

/// What the Core Location facade costs per delivered fix: the same trivial app twice, on the
/// bundled MTV drive through the ideal scenario (every fix delivered, one call each). Once as a
/// `LocationClient` that starts background updates and counts what it is handed; once as a
/// `CLLocationManagerDelegate` class that does the same through `CoreLocationApp` (a manager,
/// a `CLLocation` per fix, the delegate call, the host's task census). The difference divided by
/// the deliveries is the facade's overhead; both runs must deliver the same fixes.
enum FacadeSuite {
    static func run(_ bench: Bench) throws {
        bench.progress("facade")
        let path = bench.options.root + "/Traces/gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea"
        let trace = try TraceImporter.load(path: path)
        guard let scenario = Scenario.preset(named: "ideal") else {
            throw MergeSuite.BenchError(description: "no ideal preset")
        }
        let direct = EngineUnderTest.custom(named: "direct") { _ in DirectCountingClient() }
        let facade = EngineUnderTest.custom(named: "facade") { _ in CoreLocationApp { CountingDelegate() } }
        func replay(_ engine: EngineUnderTest) throws -> Int {
            try ScenarioRunner.run(trace, scenario, engine: engine).recorder.deliveredFixCount
        }
        let (directTiming, directCount) = try measure(bench.options.plan) { try replay(direct) }
        let (facadeTiming, facadeCount) = try measure(bench.options.plan) { try replay(facade) }
        guard directCount == facadeCount, directCount > 0 else {
            bench.fail("facade: the facade app received \(facadeCount) fixes, the direct client \(directCount)")
            return
        }
        let input = "MTV u-blox drive, ideal, \(Bench.grouped(directCount)) deliveries"
        bench.record(
            BenchmarkRow(
                suite: "facade", name: "LocationClient direct", input: input, unit: "delivered fixes/s",
                timing: directTiming, work: Double(directCount)))
        let overhead = (facadeTiming.median - directTiming.median) / Double(directCount) * 1e6
        bench.record(
            BenchmarkRow(
                suite: "facade", name: "CLLocationManagerDelegate through the facade", input: input,
                unit: "delivered fixes/s", timing: facadeTiming, work: Double(directCount),
                figures: ["overheadMicrosecondsPerFix": overhead]))
    }
}

/// Starts background updates at launch and counts every fix it is handed.
private struct DirectCountingClient: RecordingClient {
    var recorder = Recorder()
    var odometerMeters: Double { 0 }

    mutating func start(
        _ launch: LocationClientLaunch, at now: SimInstant, into requests: inout [LocationClientRequest<Never>]
    ) {
        requests.append(.device(.startedLocationUpdates(LocationUpdateOptions(allowsBackgroundLocationUpdates: true))))
    }

    mutating func didUpdateLocations(
        _ locations: [LocationDelivery], at now: SimInstant, into requests: inout [LocationClientRequest<Never>]
    ) {
        for _ in locations { recorder.fixDelivered() }
    }

    func finish(at now: SimInstant) {}
}

/// The same app as a delegate class; the run is measured on what it received. Shared with the
/// gated `facade` workload.
final class CountingDelegate: NSObject, CLLocationManagerDelegate {
    let manager = CLLocationManager()
    var count = 0

    override init() {
        super.init()
        manager.delegate = self
        manager.allowsBackgroundLocationUpdates = true
        manager.startUpdatingLocation()
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        count += locations.count
    }
}
