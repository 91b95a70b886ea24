import Foundation
import TraceSim

/// One trace through the When-In-Use preset whose phone locks after a minute, compared with the
/// ideal run of the same trace: what `tracesim replay TRACE --scenario wheninuse-locked` prints.
func replayThroughPreset(_ named: Matrix.NamedTrace, writingTo output: String) throws {
    guard let scenario = Scenario.preset(named: "wheninuse-locked"), let ideal = Scenario.preset(named: "ideal")
    else { preconditionFailure("the built-in presets are missing") }
    let run = try ScenarioRunner.run(named.trace, scenario)
    let idealRun = try ScenarioRunner.run(named.trace, ideal)
    let metrics = Metrics(run, ideal: idealRun)
    print(RunReport.text(trace: named.name, run: run, metrics: metrics))
    try write(RunReport.json(trace: named.name, run: run, metrics: metrics), to: output + "/replay.json")
    let page = HTMLReport.run(run, ideal: idealRun, metrics: metrics, trace: named.trace, named: named.name, fences: [])
    try write(page, to: output + "/replay.html")
}

/// Writes `text` as a line, as the command line prints it.
func write(_ text: String, to path: String) throws {
    try (text + "\n").write(toFile: path, atomically: true, encoding: .utf8)
}
