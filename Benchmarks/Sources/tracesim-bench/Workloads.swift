import BenchmarkKit
import Engine
import Geometry
import Scenarios
import Traces

/// Small fixed workloads whose instruction counts (valgrind callgrind) are deterministic:
/// Scripts/check-benchmarks.sh gates them. Inputs are built first; only
/// `measuredWorkload` is counted (callgrind's --toggle-collect names it).
enum Workloads {
    static let names = ["import", "pipeline", "geofencing", "config", "replay-runs", "protocol", "facade"]

    static func run(_ name: String) -> Int32 {
        switch name {
        case "import":
            let fixes = TraceGenerator.drive(fixes: 5_000, seed: 7)
            let files = [BenchFormat.gpx, .csv, .jsonl, .nmea, .gnssLogger].map {
                (name: "workload.\($0.fileExtension)", bytes: Array($0.render(fixes).utf8))
            }
            return measuredWorkload {
                var total = 0
                for file in files { total += (try? TraceImporter.read(file.bytes, name: file.name).fixes.count) ?? 0 }
                return total == fixes.count * files.count
            }
        case "pipeline":
            let trace = Trace(
                fixes: TraceGenerator.drive(fixes: 20_000, seed: 7), provenance: TraceProvenance(format: .canonicalCSV))
            // The first release's presets by name, so a new preset does not move the count: the
            // gate measures the replay's cost per preset, not how many presets there are.
            let names = [
                "ideal", "always-precise", "always-approximate", "provisional-always", "wheninuse-foreground",
                "wheninuse-locked", "wheninuse-background-session", "allow-once", "denied", "restricted",
                "services-off", "always-motion-denied", "always-force-quit", "wheninuse-force-quit",
                "missing-usage-key",
            ]
            let presets = names.compactMap(Scenario.preset(named:))
            return measuredWorkload {
                // One trace through every preset, as a matrix replays it: what the runs share
                // is measured once (`TraceMeasures`), inside the count.
                let measures = TraceMeasures(trace)
                let runs = presets.compactMap { try? ScenarioRunner.run(measures, $0) }
                return presets.count == names.count && runs.count == presets.count
                    && runs[0].recorder.acceptedFixCount > 0
            }
        case "replay-runs":
            // Not gated: the device and the replay alone, for a profile per fix (issue 32). The
            // ideal phone with an app whose work costs nothing, taking runs of locations.
            let trace = Trace(
                fixes: TraceGenerator.drive(fixes: 20_000, seed: 7), provenance: TraceProvenance(format: .canonicalCSV))
            guard let ideal = Scenario.preset(named: "ideal") else { return 1 }
            return measuredWorkload {
                let played = ScenarioRunner.replay(
                    trace, ideal, client: RunTakingClient(takesRuns: true, requestEvery: 7))
                return played.replay.client.locations > 0
            }
        case "geofencing":
            let workload = FenceWorkload(polygons: 1_000, points: 50_000, seed: 7)
            return measuredWorkload {
                guard let index = try? GeofenceIndex(workload.fences, context: GEOSContext()),
                    let answer = try? GeofencingSuite.indexAnswer(index, workload.points)
                else { return false }
                return answer.hits > 0
            }
        case "config":
            // Linear parsing is what this guards: the count grew with the square of the size
            // when every value counted its line from the start of the file.
            let fences = Array(ConfigGenerator.render(.pointFences, count: 2_000, seed: 7).utf8)
            let timeline = Array(ConfigGenerator.render(.timeline, count: 5_000, seed: 7).utf8)
            return measuredWorkload {
                let loaded = (try? GeofenceLoader.load(fences, file: "workload.geojson").count) ?? 0
                let events = (try? ScenarioFile.parse(timeline, file: "workload.json").scenario.timeline.count) ?? 0
                return loaded == 2_000 && events == 5_000
            }
        case "protocol": return ProtocolWorkload.run()
        case "facade": return FacadeWorkload.run()
        default:
            return 64
        }
    }

    /// The counted region. Never inlined, so callgrind can find it by name.
    @inline(never)
    static func measuredWorkload(_ body: () -> Bool) -> Int32 {
        body() ? 0 : 1
    }
}
