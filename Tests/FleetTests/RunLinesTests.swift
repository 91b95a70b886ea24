import ConfigJSON
import Testing

@testable import Fleet

/// Reading `matrix --format jsonl` as a stream: the header, each run in its place, and every
/// way a file can be wrong, each refused at its line.
@Suite("JSON Lines runs: reading and k-way merge")
struct RunLinesTests {
    /// A header for `inputs` input files and `scenarios` scenarios, optionally of a shard.
    static func header(inputs: [String], scenarios: [String], shard: (Int, Int)? = nil, seed: String = "null")
        -> String
    {
        let traces = inputs.map { #"{"path":"\#($0)"}"# }.joined(separator: ",")
        let names = scenarios.map { #"{"name":"\#($0)"}"# }.joined(separator: ",")
        let identitySeed = seed == "null" ? "null" : "\"\(seed)\""
        let shardMember = shard.map { #","shard":{"index":\#($0.0),"count":\#($0.1)}"# } ?? ""
        return #"{"kind":"tracesim-runs","schemaVersion":5,"identity":{"tracesim":"0.1.0","traces":[\#(traces)],"#
            + #""scenarios":[\#(names)],"seed":\#(identitySeed),"fences":null,"date":null,"inputFormat":null},"#
            + #""seed":\#(seed)\#(shardMember)}"#
    }

    /// A closing record of `inputs` inputs, `read` of them read into `traces` traces, with the
    /// `skipped` and `failed` lists as written (`{"input":2,"path":"b.gpx","reason":"r"}`...).
    static func closing(inputs: Int, read: Int, traces: Int, skipped: String = "", failed: String = "") -> String {
        #"{"kind":"tracesim-runs-end","inputs":\#(inputs),"read":\#(read),"traces":\#(traces),"#
            + #""skipped":[\#(skipped)],"failed":[\#(failed)]}"#
    }

    static func run(_ trace: String, _ scenario: String, padding: Int = 0) -> String {
        #"{"trace":"\#(trace)","scenario":"\#(scenario)","pad":"\#(String(repeating: "x", count: padding))"}"#
    }

    static let twoByTwo = header(inputs: ["a.gpx", "b.gpx"], scenarios: ["s1", "s2"])

    /// Every run of `lines`, or the error that stopped the reading.
    private func read(_ text: String, maximumLineBytes: Int = RunLines.maximumLineBytes) -> Result<
        [RunLines.Run], ConfigError
    > {
        read(Array(text.utf8), maximumLineBytes: maximumLineBytes)
    }

    private func read(_ bytes: [UInt8], maximumLineBytes: Int = RunLines.maximumLineBytes) -> Result<
        [RunLines.Run], ConfigError
    > {
        do throws(ConfigError) {
            let lines = try RunLines(bytes: bytes, file: "runs.jsonl", maximumLineBytes: maximumLineBytes)
            var runs: [RunLines.Run] = []
            while let run = try lines.next() { runs.append(run) }
            return .success(runs)
        } catch {
            return .failure(error)
        }
    }

    private func failure(_ text: String, maximumLineBytes: Int = RunLines.maximumLineBytes) -> ConfigError? {
        if case .failure(let error) = read(text, maximumLineBytes: maximumLineBytes) { return error }
        return nil
    }

    @Test("runs come with their line, input and scenario; the bytes are the line without its break")
    func wellFormed() throws {
        let text = [
            Self.twoByTwo, Self.run("a.gpx", "s1"), Self.run("a.gpx", "s2"), Self.run("b.gpx", "s1"),
            Self.run("b.gpx", "s2"), Self.closing(inputs: 2, read: 2, traces: 2),
        ].map { $0 + "\n" }.joined()
        let runs = try read(text).get()
        #expect(runs.map(\.line) == [2, 3, 4, 5])
        #expect(runs.map(\.input) == [0, 0, 1, 1])
        #expect(runs.map(\.scenarioIndex) == [0, 1, 0, 1])
        #expect(
            runs.map { String(decoding: $0.bytes, as: UTF8.self) } == [
                Self.run("a.gpx", "s1"), Self.run("a.gpx", "s2"), Self.run("b.gpx", "s1"), Self.run("b.gpx", "s2"),
            ])
    }

    @Test("CRLF line breaks and a byte-order mark are read as the plain file")
    func carriageReturnsAndByteOrderMark() throws {
        let skipped = #"{"input":2,"path":"b.gpx","reason":"no records"}"#
        let lines = [
            Self.twoByTwo, Self.run("a.gpx", "s1"), Self.run("a.gpx", "s2"),
            Self.closing(inputs: 2, read: 1, traces: 1, skipped: skipped),
        ]
        let runs = try read([0xEF, 0xBB, 0xBF] + Array(lines.map { $0 + "\r\n" }.joined().utf8)).get()
        #expect(runs.map { String(decoding: $0.bytes, as: UTF8.self) } == Array(lines.dropFirst().dropLast()))
        #expect(runs.map(\.line) == [2, 3])
    }

    @Test("a header and a closing record with every input failed is a run with no runs")
    func everyInputFailed() throws {
        let failed = #"{"input":1,"path":"a.gpx","reason":"x"},{"input":2,"path":"b.gpx","reason":"y"}"#
        #expect(
            try read([Self.twoByTwo, Self.closing(inputs: 2, read: 0, traces: 0, failed: failed)].map { $0 + "\n" }.joined()).get().isEmpty)
    }

    @Test("an empty file is refused as such")
    func empty() {
        let error = failure("")
        #expect(error?.description.hasPrefix("runs.jsonl: empty:") == true, "\(String(describing: error))")
    }

    @Test("a killed run (the last line has no line break) is refused at that line")
    func killedRun() {
        let whole = [Self.twoByTwo, Self.run("a.gpx", "s1"), Self.run("a.gpx", "s2")].map { $0 + "\n" }.joined()
        // Cut inside line 3, and just before its line break: both are a matrix that was stopped.
        for cut in [whole.utf8.count - 10, whole.utf8.count - 1] {
            let error = failure(String(decoding: whole.utf8.prefix(cut), as: UTF8.self))
            #expect(error?.line == 3)
            #expect(error?.message.contains("cut short") == true, "\(String(describing: error))")
        }
        // Cut after a whole line but mid-trace: the runs end before the trace has every scenario.
        let midTrace = failure([Self.twoByTwo, Self.run("a.gpx", "s1")].map { $0 + "\n" }.joined())
        #expect(
            midTrace?.description
                == "runs.jsonl:2: the runs end before trace 'a.gpx' has scenario 's2'")
    }

    @Test("a matrix JSON, or JSON spread over lines, is refused with what it is")
    func notJSONLines() {
        let json = #"{"schemaVersion":5,"seed":null,"runs":[]}"# + "\n"
        #expect(
            failure(json)?.description
                == "runs.jsonl:1:1: $: no 'kind': this is a matrix JSON (--format json), not JSON Lines (--format jsonl)")
        let pretty = failure("{\n  \"kind\": \"tracesim-runs\"\n}\n")
        #expect(pretty?.line == 1)
        #expect(pretty?.message.contains("one JSON object per line") == true, "\(String(describing: pretty))")
    }

    @Test(
        "a run that is not JSON, or not in its place, is refused at its line",
        arguments: [
            (#"{"trace":"a.gpx","scenario":"s1\q"}"#, "escape"),
            ("{\"trace\":\"a.gpx\",\"scenario\":\"s1\",\"x\":\u{0}}", "NUL byte"),
            (#"[1]"#, "expected '{'"),
            (#"{"trace":"a.gpx"}"#, "a run needs 'scenario'"),
            (#"{"trace":7,"scenario":"s1"}"#, "expected a string"),
            (#"{"trace":"b.gpx","scenario":"s1"}"#, "begins before trace 'a.gpx' has every scenario"),
            (#"{"trace":"c.gpx","scenario":"s1"}"#, "not one of the identity's inputs"),
            (#"{"trace":"a.gpx","scenario":"s1"}"#, "scenario 's1' where 's2' comes next"),
            ("", "an empty line"),
            ("  \t", "an empty line"),
            (#"{"trace":"a.gpx","scenario":"s1"} {}"#, "after"),
        ])
    func hostileRun(line: String, problem: String) {
        // The bad run is line 3, after a good one that starts trace a.gpx... except where it is
        // the trace's first run: then a second good run follows.
        let isSecond = problem.contains("begins before") || problem.contains("comes next")
        let good = Self.run("a.gpx", "s1")
        let lines = isSecond ? [Self.twoByTwo, good, line, good] : [Self.twoByTwo, line, good]
        let error = failure(lines.map { $0 + "\n" }.joined())
        #expect(error?.line == (isSecond ? 3 : 2), "\(String(describing: error))")
        #expect(error?.description.hasPrefix("runs.jsonl:\(isSecond ? 3 : 2)") == true)
        #expect(error?.description.lowercased().contains(problem.lowercased()) == true, "\(String(describing: error))")
    }

    @Test(
        "a header that is not one is refused, naming the key",
        arguments: [
            (#""kind":"tracesim-runs""#, #""kind":"other""#, "$.kind: expected 'tracesim-runs'"),
            (#"null},"seed":null"#, #"null},"seed":3"#, "$.seed: does not match $.identity.seed"),
            (#"null},"seed":null"#, #"null},"seed":null,"extra":1"#, "$.extra: unknown key"),
            (#""schemaVersion":5"#, #""schemaVersion":2.5"#, "$.schemaVersion: expected a whole number"),
            (
                #"null},"seed":null"#, #"null},"seed":null,"shard":{"index":3,"count":2}"#,
                "$.shard.index: must be between 1 and 2"
            ),
            (#""traces":["#, #""traces":{"#, "1:"),
        ])
    func hostileHeader(original: String, replacement: String, problem: String) throws {
        let header = Self.twoByTwo.replacingOccurrences(of: original, with: replacement)
        #expect(header != Self.twoByTwo)
        let error = try #require(failure(header + "\n"))
        #expect(error.line == 1)
        #expect(error.description.contains(problem), "\(error)")
    }

    @Test("a line longer than the limit is refused, before the reader holds much more than it")
    func overlongLine() {
        let text = [
            Self.twoByTwo, Self.run("a.gpx", "s1", padding: 300_000), Self.run("a.gpx", "s2"),
            Self.closing(inputs: 2, read: 1, traces: 1, skipped: #"{"input":2,"path":"b.gpx","reason":"no records"}"#),
        ].map { $0 + "\n" }.joined()
        let error = failure(text, maximumLineBytes: 100_000)
        #expect(error?.line == 2)
        #expect(error?.message.hasPrefix("line longer than 100000 bytes") == true, "\(String(describing: error))")
        #expect(failure(text, maximumLineBytes: 400_000) == nil)
    }

    @Test("a seed beyond 2^53 is compared as written")
    func largeSeed() throws {
        let header = Self.header(inputs: ["a.gpx"], scenarios: ["s1"], seed: "9007199254740993")
        let closing = Self.closing(inputs: 1, read: 1, traces: 1)
        #expect(try read(header + "\n" + Self.run("a.gpx", "s1") + "\n" + closing + "\n").get().count == 1)
        let off = header.replacingOccurrences(of: #""seed":9007199254740993"#, with: #""seed":9007199254740992"#)
        #expect(failure(off + "\n")?.message == "does not match $.identity.seed")
    }

    // MARK: Merging

    /// The parts of a sharded run of `inputs` inputs of one scenario, each run padded to about
    /// `padding` bytes, as JSON Lines.
    private func parts(inputs: Int, count: Int, padding: Int) -> [[UInt8]] {
        let paths = (0..<inputs).map { "trace-\($0).gpx" }
        return (1...count).map { index in
            var text = Self.header(inputs: paths, scenarios: ["s1"], shard: (index, count)) + "\n"
            let held = Array(stride(from: index - 1, to: inputs, by: count))
            for input in held {
                text += Self.run(paths[input], "s1", padding: padding) + "\n"
            }
            text += Self.closing(inputs: held.count, read: held.count, traces: held.count) + "\n"
            return Array(text.utf8)
        }
    }

    @Test("2,000 runs merge in input order while each part's buffer stays near one chunk")
    func boundedMerge() throws {
        let parts = parts(inputs: 2_000, count: 3, padding: 2_000)
        let readers = try parts.enumerated().map { try RunLines(bytes: $1, file: "part\($0 + 1).jsonl") }
        var merge = try Matrix.LinesMerge(readers.reversed())
        var inputs: [Int] = []
        var largestBuffer = 0
        while let run = try merge.next() {
            inputs.append(run.input)
            largestBuffer = max(largestBuffer, readers.map(\.bufferBytes).max() ?? 0)
        }
        #expect(inputs == Array(0..<2_000))
        // About 1.4 MB per part; each holds at most two chunks, as at the first run.
        #expect(parts.allSatisfy { $0.count > 1_300_000 })
        #expect(largestBuffer > 0 && largestBuffer <= 2 * (1 << 16), "\(largestBuffer)")
        #expect(merge.identity.traces.count == 2_000)
        #expect(merge.closing == Matrix.ClosingRecord(inputs: 2_000, read: 2_000, traces: 2_000))
    }

    @Test("parts that are not shards 1...N of one run, each once, are refused")
    func refusals() throws {
        let parts = parts(inputs: 5, count: 3, padding: 0)
        func open(_ numbers: [Int]) throws -> [RunLines] {
            try numbers.map { try RunLines(bytes: parts[$0 - 1], file: "part\($0).jsonl") }
        }
        #expect(throws: Matrix.MergeRefusal.self) { try Matrix.LinesMerge(try open([1, 2])) }
        do {
            _ = try Matrix.LinesMerge(try open([1, 2, 2]))
            Issue.record("a shard given twice was merged")
        } catch let refusal as Matrix.MergeRefusal {
            #expect(refusal.message == "shard 2 given twice: part2.jsonl and part2.jsonl")
        }
        let whole = try RunLines(
            bytes: Array((Self.header(inputs: ["a.gpx"], scenarios: ["s1"]) + "\n").utf8), file: "whole.jsonl")
        do {
            _ = try Matrix.LinesMerge(try open([1]) + [whole])
            Issue.record("a whole run was merged with a part")
        } catch let refusal as Matrix.MergeRefusal {
            #expect(refusal.message.hasPrefix("whole.jsonl: a whole run, not a shard"))
        }
    }

    @Test("a part holding another shard's input is refused at that line")
    func foreignInput() throws {
        let paths = ["a.gpx", "b.gpx"]
        let text = Self.header(inputs: paths, scenarios: ["s1"], shard: (1, 2)) + "\n" + Self.run("b.gpx", "s1") + "\n"
        let error = failure(text)
        #expect(error?.description == "runs.jsonl:2: $: trace 'b.gpx' is input 2, which belongs to shard 2, not 1")
    }
}
