import Engine
import Fleet
import Foundation
import Geometry
import Scenarios
import SimulationCore
import TestSupport
import Traces

/// A small fixed trip for the golden files: a walk through the example geofences, a stop, then
/// a drive away, one fix every two seconds, written as TraceSim CSV and read back so it carries
/// a format like any imported file.
enum Fixture {
    static let repositoryRoot = Repository.root
    static let name = "fixture.csv"

    static func example(_ file: String) throws -> [UInt8] {
        try Array(Data(contentsOf: repositoryRoot.appendingPathComponent("Documentation/Examples/" + file)))
    }

    static let trace: Trace = {
        var fixes: [Fix] = []
        var time = SimInstant(nanosecondsSinceEpoch: 1_650_000_000_000_000_000)
        var (latitude, longitude) = (37.4205, -122.0865)
        for index in 0..<420 {
            // Walk north-east for 7 minutes, stand for 3, then drive east.
            let (north, east, speed): (Double, Double, Double) =
                index < 210 ? (1.0, 1.0, 1.4) : index < 300 ? (0, 0, 0) : (0.2, 1.0, 12)
            latitude += north * speed * 2 / 111_195 / 1.4142
            longitude += east * speed * 2 / 88_000 / 1.4142
            let accuracy = index % 37 == 5 ? 180.0 : 4 + Double(index % 7)
            fixes.append(
                Fix(
                    timestamp: time, latitude: (latitude * 1e7).rounded() / 1e7,
                    longitude: (longitude * 1e7).rounded() / 1e7, horizontalAccuracy: .meters(accuracy),
                    speedMetersPerSecond: Float(speed), provider: .gps))
            time = time.advanced(byNanoseconds: 2_000_000_000)
        }
        let written = TraceExporter.export(
            Trace(fixes: fixes, provenance: TraceProvenance(format: .canonicalCSV)), as: .csv)
        // The trace is built above from constants: it always reads back.
        return (try? TraceImporter.read(Array(written.utf8), name: name))
            ?? Trace(
                fixes: fixes, provenance: TraceProvenance(format: .canonicalCSV))
    }()

    static func fences() throws -> [Geofence] { try GeofenceLoader.load(example("fences.geojson"), file: "fences.geojson") }

    static func preset(_ name: String) -> Scenario {
        guard let scenario = Scenario.preset(named: name) else { fatalError("no preset \(name)") }
        return scenario
    }

    /// Three presets on the fixture with the example fences.
    static func matrix(identity: RunIdentity? = nil) throws -> Matrix {
        Matrix(
            traces: [Matrix.NamedTrace(name: name, trace: trace)],
            scenarios: ["always-precise", "wheninuse-locked", "denied"].map { Matrix.Entry(preset($0)) },
            fences: try fences(), identity: identity)
    }
}
