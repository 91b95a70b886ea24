import Device
import Scenarios
import SimulationCore
import Testing
import TestSupport
import Traces

@testable import EngineProtocol

/// Writes every `didUpdateLocations` as the protocol line an engine would read.
private struct LineWriter: LocationClient {
    var lines: [String] = []

    mutating func start(
        _ launch: LocationClientLaunch, at now: SimInstant, into requests: inout [LocationClientRequest<Never>]
    ) {
        requests.append(.device(.startedLocationUpdates(LocationUpdateOptions(allowsBackgroundLocationUpdates: true))))
    }

    mutating func didUpdateLocations(
        _ locations: [LocationDelivery], at now: SimInstant, into requests: inout [LocationClientRequest<Never>]
    ) {
        lines.append(EngineEvent.didUpdateLocations(locations).line(now: now))
    }

    func finish(at now: SimInstant) {}
}

@Suite("Engine protocol: deliveries carry metres")
struct DeliveredMetresTests {
    @Test("The u-blox NMEA drive (HDOP only) reaches an engine with horizontalAccuracy in metres, never a dilution")
    func nmeaDriveSendsMetres() throws {
        let trace = try TraceImporter.load(
            path: Repository.trace("gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea"))
        // The log gives HDOP, never metres.
        #expect(!trace.fixes.contains { $0.horizontalAccuracyKind == .meters })
        let scenario = try #require(Scenario.preset(named: "wheninuse-foreground"))
        let played = ScenarioRunner.replay(trace, scenario, client: LineWriter())
        let lines = played.replay.client.lines
        #expect(lines.count == 1654)
        #expect(lines.allSatisfy { $0.contains("\"horizontalAccuracy\":") })
        #expect(!lines.contains { $0.contains("Dilution") })
        // The first fix's HDOP times the range-error model's 7.5 m per unit.
        let first = try #require(trace.fixes.first?.storedHorizontalAccuracyFigure)
        #expect(lines[0].contains("\"horizontalAccuracy\":\(first * 7.5)"))
    }
}
