import Synchronization
import TestSupport
import Testing
import Traces

@testable import Fleet
@testable import Scenarios
@testable import TraceSimCLI

/// `matrix --format jsonl` never writes a run line that `merge` and `summarize` would refuse:
/// an input whose run is longer fails, named with the bound, and the closing record lists it.
/// The bound is lowered here: the real one needs a trace of 4 million fixes.
@Suite("Run lines within what merge reads")
struct RunLineBoundTests {
    static let tunnel = Repository.trace("mapbox-navigation-ios/tunnel.json")

    /// What a console wrote on one stream.
    final class Sink: Sendable {
        private let text = Mutex("")
        func append(_ more: String) { text.withLock { $0 += more } }
        var written: String { text.withLock { $0 } }
    }

    /// A `jsonl` output with a bound of `bound` bytes a line, and what it wrote on each stream.
    private func output(bound: Int) -> (MatrixOutput, Sink, Sink) {
        let written = Sink()
        let errors = Sink()
        let console = Console(output: { written.append($0) }, error: { errors.append($0) })
        return (
            MatrixOutput(format: .jsonl, scenarios: ["denied"], console: console, maximumRunLineBytes: bound),
            written, errors
        )
    }

    private func emit(_ output: MatrixOutput, line: String) -> ExitCode? {
        _ = output.load(0, path: Self.tunnel, options: ImportOptions())
        return output.emit(
            Matrix.InputOutputs(input: 0, traceNames: ["tunnel.json"], outputs: [.text(line + "\n")]),
            identityInput: 0, path: Self.tunnel)
    }

    @Test("a run line over the bound fails its input with 65, is not written, and is listed as failed")
    func tooLong() {
        let (output, written, errors) = output(bound: 100)
        #expect(emit(output, line: "{" + String(repeating: " ", count: 99) + "}") == .dataError)
        output.end(perTrace: false, isPart: false)
        let reason =
            "a run of it is 101 bytes as a JSON line, over the 100 bytes 'tracesim merge' and 'summarize' read (a "
            + "trace of over about 4 million delivered fixes): split the trace"
        #expect(errors.written == "error: \(Self.tunnel): \(reason)\n")
        #expect(
            written.written
                == #"{"kind":"tracesim-runs-end","inputs":1,"read":0,"traces":0,"skipped":[],"failed":[{"input":1,"path":""#
                + Self.tunnel + #"","reason":""# + reason + #""}]}"# + "\n")
    }

    @Test("a run line at the bound is written")
    func atBound() {
        let (output, written, errors) = output(bound: 100)
        let line = "{" + String(repeating: " ", count: 98) + "}"
        #expect(emit(output, line: line) == nil)
        #expect(errors.written.isEmpty)
        #expect(written.written == line + "\n")
    }
}
