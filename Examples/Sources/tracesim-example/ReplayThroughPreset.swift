import Foundation
import TraceSim

/// One trace through the When-In-Use preset whose phone locks after a minute, compared with its
/// ideal run: what `tracesim replay TRACE --scenario wheninuse-locked` prints.
func replayThroughPreset(_ named: Matrix.NamedTrace, writingTo output: String) throws {
    guard let scenario = Scenario.preset(named: "wheninuse-locked") else {
        preconditionFailure("the built-in presets are missing")
    }
    let comparison = try Comparison(trace: named.trace, scenario: scenario, traceName: named.name)
    let (run, metrics) = (comparison.run, comparison.metrics)
    print(RunReport.text(trace: named.name, run: run, metrics: metrics))
    try write(RunReport.json(trace: named.name, run: run, metrics: metrics), to: output + "/replay.json")
    let page = HTMLReport.run(
        run, ideal: comparison.ideal, metrics: metrics, trace: named.trace, named: named.name, fences: [])
    try write(page, to: output + "/replay.html")
}

/// Writes `text` as a line, as the command line prints it.
func write(_ text: String, to path: String) throws {
    try (text + "\n").write(toFile: path, atomically: true, encoding: .utf8)
}
