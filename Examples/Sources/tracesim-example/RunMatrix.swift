import Foundation
import TraceSim

/// Every trace through every preset but the ideal reference, each run against the ideal run of
/// its trace, on every core: what `tracesim matrix TRACES... --format json|html` prints.
func runMatrix(over traces: [Matrix.NamedTrace], writingTo output: String) throws {
    let presets = Scenario.presets.filter { $0.name != "ideal" }.map { Matrix.Entry($0) }
    let matrix = Matrix(traces: traces, scenarios: presets, seed: nil, fences: [])
    let result = try matrix.run()
    print(MatrixReport.text(result))
    try write(MatrixReport.json(result), to: output + "/matrix.json")
    try write(MatrixReport.html(result), to: output + "/matrix.html")
}
