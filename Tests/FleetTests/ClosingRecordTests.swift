import ConfigJSON
import Testing

@testable import Fleet

/// The closing record of JSON Lines runs: read last, checked to account for every input the
/// file holds, and what a file without one (a run that did not finish) is refused for. Also the
/// bounds of a line and the NUL rule, which decide how much of a hostile file is read.
@Suite("JSON Lines runs: the closing record and the bounds of a line")
struct ClosingRecordTests {
    typealias Lines = RunLinesTests

    /// Three inputs, one scenario.
    static let header = Lines.header(inputs: ["a.gpx", "b.gpx", "c.gpx"], scenarios: ["s1"])

    static func text(_ lines: [String]) -> String { lines.map { $0 + "\n" }.joined() }

    static func skipped(_ input: Int, _ path: String, _ reason: String = "no records") -> String {
        #"{"input":\#(input),"path":"\#(path)","reason":"\#(reason)"}"#
    }

    /// Every run of `text` and the reader, or the error that stopped the reading.
    static func read(_ text: String, allowsPartial: Bool = false, maximumLineBytes: Int = RunLines.maximumLineBytes)
        -> (runs: [RunLines.Run], lines: RunLines?, error: ConfigError?)
    {
        read(Array(text.utf8), allowsPartial: allowsPartial, maximumLineBytes: maximumLineBytes)
    }

    static func read(_ bytes: [UInt8], allowsPartial: Bool = false, maximumLineBytes: Int = RunLines.maximumLineBytes)
        -> (runs: [RunLines.Run], lines: RunLines?, error: ConfigError?)
    {
        var runs: [RunLines.Run] = []
        var lines: RunLines?
        do throws(ConfigError) {
            lines = try RunLines(
                bytes: bytes, file: "runs.jsonl", maximumLineBytes: maximumLineBytes, allowsPartial: allowsPartial)
            while let run = try lines?.next() { runs.append(run) }
            return (runs, lines, nil)
        } catch {
            return (runs, lines, error)
        }
    }

    @Test("a closing record that accounts for every input ends the runs: read, skipped and failed")
    func accounted() throws {
        let failed = Self.skipped(3, "c.gpx", "line 4:2: lat is not a number")
        let result = Self.read(
            Self.text([
                Self.header, Lines.run("a.gpx", "s1"),
                Lines.closing(inputs: 3, read: 1, traces: 1, skipped: Self.skipped(2, "b.gpx"), failed: failed),
            ]))
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.runs.count == 1)
        let closing = try #require(result.lines?.closing)
        #expect(closing.skipped == [.init(input: 1, path: "b.gpx", reason: "no records")])
        #expect(closing.failed == [.init(input: 2, path: "c.gpx", reason: "line 4:2: lat is not a number")])
        #expect(result.lines?.closingLine == 3)
    }

    @Test(
        "a closing record that does not account for the inputs as the runs do is refused at its line",
        arguments: [
            (Lines.closing(inputs: 2, read: 1, traces: 1), "accounts for 2 inputs, but the part holds 3"),
            (Lines.closing(inputs: 3, read: 2, traces: 2), "says 2 inputs were read, but the runs come from 1"),
            (
                Lines.closing(inputs: 3, read: 1, traces: 2, skipped: skipped(2, "b.gpx"), failed: skipped(3, "c.gpx")),
                "says the inputs gave 2 traces, but the runs are of 1"
            ),
            (
                Lines.closing(inputs: 3, read: 1, traces: 1, skipped: skipped(2, "b.gpx")),
                "does not account for input 3 'c.gpx', which has no runs"
            ),
            (
                Lines.closing(inputs: 3, read: 1, traces: 1, skipped: skipped(1, "a.gpx") + "," + skipped(2, "b.gpx")),
                "lists input 1 'a.gpx' as skipped or failed, but it has runs"
            ),
            (
                Lines.closing(inputs: 3, read: 1, traces: 1, skipped: skipped(2, "x.gpx") + "," + skipped(3, "c.gpx")),
                "lists input 2 as 'x.gpx', but the identity names it 'b.gpx'"
            ),
            (
                Lines.closing(inputs: 3, read: 1, traces: 1, skipped: skipped(3, "c.gpx") + "," + skipped(2, "b.gpx")),
                "inputs must be listed in increasing order"
            ),
            (
                Lines.closing(inputs: 3, read: 1, traces: 1, skipped: skipped(2, "b.gpx") + "," + skipped(4, "d.gpx")),
                "lists input 4, which is not one of the part's"
            ),
        ])
    func mismatch(record: String, problem: String) {
        let error = Self.read(Self.text([Self.header, Lines.run("a.gpx", "s1"), record])).error
        #expect(error?.line == 3, "\(String(describing: error))")
        #expect(error?.description.contains(problem) == true, "\(String(describing: error))")
    }

    @Test("a shard's record accounts for its own inputs only, and the merged record is the unsharded one")
    func shards() throws {
        let paths = ["a.gpx", "b.gpx", "c.gpx"]
        let one = Self.text([
            Lines.header(inputs: paths, scenarios: ["s1"], shard: (1, 2)), Lines.run("a.gpx", "s1"),
            Lines.closing(inputs: 2, read: 1, traces: 1, failed: Self.skipped(3, "c.gpx", "no such file")),
        ])
        let two = Self.text([
            Lines.header(inputs: paths, scenarios: ["s1"], shard: (2, 2)),
            Lines.closing(inputs: 1, read: 0, traces: 0, skipped: Self.skipped(2, "b.gpx")),
        ])
        let parts = try [two, one].enumerated().map {
            try RunLines(bytes: Array($1.utf8), file: "part\(2 - $0).jsonl", allowsPartial: true)
        }
        var merge = try Matrix.LinesMerge(parts, allowsPartial: true)
        while try merge.next() != nil {}
        #expect(
            merge.closing
                == Matrix.ClosingRecord(
                    inputs: 3, read: 1, traces: 1, skipped: [.init(input: 1, path: "b.gpx", reason: "no records")],
                    failed: [.init(input: 2, path: "c.gpx", reason: "no such file")]))
        #expect(
            merge.shortfalls == [
                "part1.jsonl: input 3 'c.gpx' failed in its run (no such file): what follows leaves it out"
            ])
        // Without allowsPartial, the failed input refuses the merge once the parts are read.
        var strict = try Matrix.LinesMerge(
            try [one, two].enumerated().map { try RunLines(bytes: Array($1.utf8), file: "part\($0 + 1).jsonl") })
        #expect(try strict.next() != nil)
        do {
            _ = try strict.next()
            Issue.record("a part with a failed input was merged")
        } catch {
            #expect(
                error.description
                    == "part1.jsonl:3: $.failed: input 3 'c.gpx' failed in the run that wrote this part (no such file), "
                    + "so its runs are missing. Fix it and run the part again, or pass --allow-partial to read the rest")
        }
        #expect(strict.closing == nil)
    }

    @Test("under --tracks each, an input read counts once and its tracks each as a trace")
    func tracks() throws {
        let header = Lines.header(inputs: ["a.gpx"], scenarios: ["s1"]).replacingOccurrences(
            of: #""inputFormat":null}"#, with: #""inputFormat":null,"tracks":"each"}"#)
        let result = Self.read(
            Self.text([
                header, Lines.run("a.gpx#1", "s1"), Lines.run("a.gpx#3", "s1"),
                Lines.closing(inputs: 1, read: 1, traces: 2),
            ]))
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.runs.map(\.input) == [0, 0])
    }

    @Test(
        "without a closing record, the file is refused naming the first input it does not account for",
        arguments: [
            ([String](), "ends at line 1 without the closing record", "input 1 'a.gpx' is the first"),
            ([Lines.run("a.gpx", "s1")], "ends at line 2 without the closing record", "input 2 'b.gpx' is the first"),
            (
                // An input passed over without a run is not accounted for: nothing says it was skipped.
                [Lines.run("a.gpx", "s1"), Lines.run("c.gpx", "s1")], "ends at line 3", "input 2 'b.gpx' is the first"
            ),
            (
                [Lines.run("a.gpx", "s1"), Lines.run("b.gpx", "s1"), Lines.run("c.gpx", "s1")], "ends at line 4",
                "every input it holds has runs, but nothing says the last one's are all there"
            ),
        ])
    func unfinished(runs: [String], end: String, first: String) throws {
        let text = Self.text([Self.header] + runs)
        let refused = Self.read(text)
        #expect(refused.runs.count == runs.count)
        let message = try #require(refused.error?.description)
        #expect(message.hasPrefix("runs.jsonl: \(end)"), "\(message)")
        #expect(message.contains(first), "\(message)")
        #expect(message.hasSuffix("Run it again, or pass --allow-partial to read what it holds"), "\(message)")
        #expect(message.contains("the run that wrote it was stopped, or its engine failed"), "\(message)")
        let partial = Self.read(text, allowsPartial: true)
        #expect(partial.error == nil)
        #expect(partial.runs.count == runs.count)
        #expect(partial.lines?.closing == nil)
        #expect(partial.lines?.unfinished?.lastLine == runs.count + 1)
    }

    @Test(
        "nothing may follow the closing record, and it may not end a trace early",
        arguments: [
            ([Lines.closing(inputs: 3, read: 0, traces: 0, failed: "X"), ClosingRecordTests.header], 3, "a line after"),
            ([Lines.closing(inputs: 3, read: 0, traces: 0, failed: "X"), Lines.run("a.gpx", "s1")], 3, "a line after"),
            ([ClosingRecordTests.header], 2, "a second header"),
            ([#"{"kind":"other"}"#], 2, "expected a run, or the closing record"),
        ])
    func endsTheRuns(lines: [String], line: Int, problem: String) {
        let failed = ["a.gpx", "b.gpx", "c.gpx"].enumerated().map { Self.skipped($0 + 1, $1) }.joined(separator: ",")
        let text = Self.text([Self.header] + lines.map { $0.replacingOccurrences(of: "[X]", with: "[\(failed)]") })
        let error = Self.read(text).error
        #expect(error?.line == line, "\(String(describing: error))")
        #expect(error?.description.contains(problem) == true, "\(String(describing: error))")
    }

    @Test("a closing record before the last trace has every scenario is refused")
    func closingMidTrace() {
        let header = Lines.header(inputs: ["a.gpx"], scenarios: ["s1", "s2"])
        let error = Self.read(
            Self.text([header, Lines.run("a.gpx", "s1"), Lines.closing(inputs: 1, read: 1, traces: 1)])
        ).error
        #expect(error?.description == "runs.jsonl:3: the closing record comes before trace 'a.gpx' has scenario 's2'")
    }

    @Test("a reason is kept to 1,024 bytes when written, cut at a character, and a longer one is refused when read")
    func reasonBound() throws {
        let long = String(repeating: "é", count: 700)
        let entry = Matrix.ClosingRecord.Entry(input: 0, path: "a.gpx", reason: long)
        #expect(entry.reason.utf8.count <= Matrix.ClosingRecord.maximumReasonBytes)
        #expect(entry.reason.utf8.count > Matrix.ClosingRecord.maximumReasonBytes - 4)
        #expect(entry.reason.hasSuffix("…") && entry.reason.dropLast().allSatisfy { $0 == "é" })
        let error = Self.read(
            Self.text([
                Self.header, Lines.run("a.gpx", "s1"),
                Lines.closing(
                    inputs: 3, read: 1, traces: 1, skipped: Self.skipped(2, "b.gpx"),
                    failed: Self.skipped(3, "c.gpx", long)),
            ])
        ).error
        #expect(error?.description.contains("$.failed[0].reason: longer than 1024 bytes") == true)
    }

    // MARK: Bounds

    @Test("a run line just over the cap is refused once about the cap is read, not the rest of the file")
    func runLineCap() throws {
        let cap = RunLines.maximumLineBytes
        #expect(cap == 64 << 20)
        var bytes = Array((Self.header + "\n").utf8)
        let start = bytes.count
        bytes += Array(#"{"trace":"a.gpx","scenario":"s1","pad":""#.utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "x"), count: cap + 1 - (bytes.count - start))
        // The line goes on, 16 MiB more, as a hostile file would.
        bytes += [UInt8](repeating: UInt8(ascii: "x"), count: 16 << 20)
        let result = Self.read(bytes)
        #expect(result.error?.description == "runs.jsonl:2: line longer than \(cap) bytes: not runs 'tracesim matrix' writes")
        let lines = try #require(result.lines)
        #expect(lines.bytesRead <= start + cap + 2 * LineReader.chunkBytes, "\(lines.bytesRead)")
        #expect(lines.bufferBytes <= cap + 3 * LineReader.chunkBytes, "\(lines.bufferBytes)")
    }

    @Test("only a line that begins as the header or the closing record is written may pass the run line cap")
    func headerAndClosingBounds() throws {
        let paths = (0..<40).map { "input-\($0)-" + String(repeating: "p", count: 30) + ".gpx" }
        let header = Lines.header(inputs: paths, scenarios: ["s1"])
        let skipped = paths.enumerated().map { Self.skipped($0 + 1, $1) }.joined(separator: ",")
        let closing = Lines.closing(inputs: 40, read: 0, traces: 0, skipped: skipped)
        #expect(header.utf8.count > 1_000 && closing.utf8.count > 1_000)
        let whole = Self.read(Self.text([header, closing]), maximumLineBytes: 1_000)
        #expect(whole.error == nil, "\(String(describing: whole.error))")
        #expect(whole.lines?.closing?.skipped.count == 40)
        // The same header written with a space is not the header as it is written.
        let spaced = Self.read(
            Self.text([header.replacingOccurrences(of: #"{"kind":"#, with: #"{ "kind":"#), closing]),
            maximumLineBytes: 1_000)
        #expect(spaced.error?.description.hasPrefix("runs.jsonl:1: line longer than 1000 bytes") == true)
        let run = Self.read(
            Self.text([header, Lines.run(paths[0], "s1", padding: 2_000), closing]), maximumLineBytes: 1_000)
        #expect(run.error?.description.hasPrefix("runs.jsonl:2: line longer than 1000 bytes") == true)
        // A closing record past its own bound: every input listed with a reason of the most bytes.
        let limit = RunLines.maximumClosingBytes(headerBytes: header.utf8.count, inputs: paths.count)
        let huge = #"{"kind":"tracesim-runs-end","x":""# + String(repeating: "x", count: limit) + "\"}"
        let over = Self.read(Self.text([header, huge]), maximumLineBytes: 1_000)
        #expect(over.error?.description.hasPrefix("runs.jsonl:2: line longer than \(limit) bytes") == true)
        #expect((over.lines?.bytesRead ?? .max) <= header.utf8.count + 1 + limit + 2 * LineReader.chunkBytes)
    }

    @Test("the first NUL byte stops the reading, naming its line and column")
    func nulByte() throws {
        // A stream of NULs after the header, as /dev/zero would give: one chunk is read.
        var bytes = Array((Self.header + "\n").utf8)
        let start = bytes.count
        bytes += [UInt8](repeating: 0, count: 8 << 20)
        let zeros = Self.read(bytes)
        #expect(
            zeros.error?.description == "runs.jsonl:2:1: NUL byte, which no JSON line holds (is this a binary file?)")
        #expect((zeros.lines?.bytesRead ?? .max) <= start + LineReader.chunkBytes)
        // One NUL inside a run, after a good line: the good line is handed over first.
        let text = Self.text([Self.header, Lines.run("a.gpx", "s1"), #"{"trace":"b.gpx","sce\#u{0}"#, "more"])
        let inside = Self.read(text)
        #expect(inside.runs.count == 1)
        #expect(inside.error?.line == 3 && inside.error?.column == 22, "\(String(describing: inside.error))")
        // The header itself: refused at once, before the header's larger bound is reached.
        let first = Self.read([UInt8](repeating: 0, count: 1 << 20))
        #expect(first.error?.description == "runs.jsonl:1:1: NUL byte, which no JSON line holds (is this a binary file?)")
    }

    @Test("/dev/zero is refused at its first byte")
    func devZero() {
        do {
            _ = try RunLines(path: "/dev/zero")
            Issue.record("/dev/zero was read as runs")
        } catch {
            #expect("\(error)" == "/dev/zero:1:1: NUL byte, which no JSON line holds (is this a binary file?)")
        }
    }
}
