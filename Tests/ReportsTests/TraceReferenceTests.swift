import ConfigJSON
import Device
import Engine
import Fleet
import Foundation
import Geometry
import Reports
import Scenarios
import SimulationCore
import TestSupport
import Testing
import Traces

/// Every run is measured against the replayed trace too (issue 30 §1): an engine compared only
/// with its own ideal run reads 100 % whether it keeps the trace or nothing, so the tables show
/// "vs the trace" columns and warn loudly when an engine keeps nothing, keeps a path longer
/// than the trace, or keeps fixes far from it. Custom engines written for these tests.
@Suite("Runs against the trace")
struct TraceReferenceTests {
    /// The bundled u-blox drive (29 min, 8.6 km, Mountain View).
    static let drive: Trace = {
        let path = Repository.trace("gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea")
        do { return try TraceImporter.load(path: path) } catch { fatalError("bundled trace: \(error)") }
    }()

    static func run(_ engine: EngineUnderTest, scenarios names: [String]) throws -> MatrixResult {
        var matrix = Matrix(
            traces: [Matrix.NamedTrace(name: "drive", trace: drive)],
            scenarios: try names.map { Matrix.Entry(try #require(Scenario.preset(named: $0))) })
        matrix.engine = engine
        return try matrix.run(jobs: 1)
    }

    @Test("the built-in engine on the drive: its share of the trace's path and time, on the trace, no warning")
    func builtInAgainstTheTrace() throws {
        let result = try Self.run(.builtIn, scenarios: ["always-precise"])
        let metrics = RunReport.roundedAsWritten(try #require(result.cells.first?.metrics))
        // The drive's 8.6 km and 28 min 47 s that its fixes cover; always-precise loses the
        // start (a late departure after the prompt) and keeps 90.5 % of the path (90.4 % before
        // issue 31's region calibration brought the departure in).
        #expect(metrics.tracePathMeters == 8_602.44)
        #expect(metrics.traceCoveredSeconds == 1_727)
        #expect(metrics.keptPathMeters == 7_783.21)
        #expect(metrics.idealKeptPathMeters == 8_601.91)
        #expect(metrics.tracePathRatio == 0.9048)
        #expect(metrics.traceTimeCoverage == 0.8002)
        // The built-in engine keeps the trace's own fixes, unsmoothed: no distance at all.
        #expect(metrics.positionErrorReference == .trace)
        #expect(metrics.positionErrorMedianMeters == 0)
        #expect(MatrixTable(result).traceWarnings.isEmpty)
        let text = MatrixReport.text(result)
        #expect(!text.contains("WARNING"))
        #expect(text.contains("trace path   median  trace time"), "\(text)")
    }

    @Test("an engine that keeps nothing gets the ideal warning in text, JSON, Markdown and HTML")
    func keepsNothing() throws {
        let result = try Self.run(
            .custom(named: "nothing") { _ in KeepingClient(.nothing) },
            scenarios: ["always-precise", "denied"])
        let warnings = MatrixTable(result).traceWarnings
        #expect(warnings.map(\.code) == [.idealKeptNothing])
        #expect(warnings.first?.subject == "ideal")
        let text = MatrixReport.text(result)
        #expect(
            text.contains(
                "ERROR: ideal: the engine's ideal run kept no fix, so every ratio against it is empty; "
                    + "the engine keeps nothing even at its best"), "\(text)")
        // The ideal row shows the engine's own share of the trace: nothing.
        let idealRow = try #require(text.split(separator: "\n").first { $0.hasPrefix("ideal ") })
        #expect(idealRow.hasSuffix("0.0 %       0.0 %"), "\(idealRow)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(MatrixReport.json(result).utf8)) as? [String: Any])
        let runs = try #require(json["runs"] as? [[String: Any]])
        for run in runs {
            let codes = (run["warnings"] as? [[String: Any]])?.compactMap { $0["code"] as? String }
            #expect(codes == ["idealKeptNothing"])
            let severities = (run["warnings"] as? [[String: Any]])?.compactMap { $0["severity"] as? String }
            #expect(severities == ["error"])
            #expect(run["positionErrorReference"] is NSNull)
        }
        #expect(MatrixReport.markdown(result).contains("**ERROR:** ` ideal `: the engine's ideal run kept no fix"))
        #expect(MatrixReport.html(result).contains("<div class=\"warnings\" role=\"alert\">"))
        #expect(MatrixReport.html(result).contains("<li><strong>Error:</strong> ideal: the engine's ideal run"))
    }

    @Test("an engine that keeps reduced-accuracy fixes keeps a path beyond the trace and far from it")
    func keepsReducedAccuracyFixes() throws {
        let result = try Self.run(
            .custom(named: "everything") { _ in KeepingClient(.everything) },
            scenarios: ["always-precise", "always-approximate"])
        let approximate = try #require(result.cells.first { $0.run.scenario == "always-approximate" }?.metrics)
        let path = try #require(approximate.tracePathRatio)
        #expect(path > TraceWarning.pathCeiling, "\(path)")
        #expect(try #require(approximate.positionErrorMedianMeters) > 1_000)
        // Against its own ideal run it is no worse than 100 %: only the trace shows the problem.
        let precise = try #require(result.cells.first { $0.run.scenario == "always-precise" }?.metrics)
        #expect(try #require(precise.tracePathRatio) <= TraceWarning.pathCeiling)
        let warnings = MatrixTable(result).traceWarnings
        #expect(warnings.map(\.code) == [.pathBeyondTrace, .farFromTrace])
        #expect(warnings.allSatisfy { $0.subject == "always-approximate" })
        let text = MatrixReport.text(result)
        #expect(
            text.contains(
                "WARNING: always-approximate: kept path is \(Formatting.percent(path)) of the trace's path "
                    + "(over 105.0 %): fixes off the trace (reduced-accuracy ones) were counted as kept"), "\(text)")
        #expect(text.contains("WARNING: always-approximate: kept fixes are "))
    }

    @Test("an engine whose fixes are 222 m off the trace warns at the median and keeps the path's length")
    func displacedFixes() throws {
        let result = try Self.run(
            .custom(named: "displaced") { _ in KeepingClient(.displaced(latitudeDegrees: 0.002)) },
            scenarios: ["always-precise"])
        let metrics = try #require(result.cells.first?.metrics)
        // 0.002° of latitude is 222.4 m anywhere.
        let median = try #require(metrics.positionErrorMedianMeters)
        #expect(abs(median - 222.4) < 1, "\(median)")
        #expect(abs(try #require(metrics.tracePathRatio) - 1) < 0.01)
        let warnings = MatrixTable(result).traceWarnings
        #expect(warnings.map(\.code) == [.farFromTrace])
        #expect(
            MatrixReport.text(result).contains(
                "WARNING: always-precise: kept fixes are 222 m from the trace at the median, over 100 m"))
    }

    @Test("a truth takes precedence over the trace for the position error, and the run says so")
    func truthTakesPrecedence() throws {
        let result = try Self.run(
            .custom(named: "displaced") { _ in KeepingClient(.displaced(latitudeDegrees: 0.002)) },
            scenarios: ["always-precise"])
        let cell = try #require(result.cells.first)
        var metrics = cell.metrics
        // The trace as its own truth: the same 222 m, now against the truth.
        metrics.measureError(of: cell.run, against: Self.drive)
        #expect(metrics.positionErrorReference == .truth)
        let json = RunReport.json(trace: "drive", run: cell.run, metrics: metrics)
        #expect(json.contains(#""positionErrorReference":"truth""#))
        #expect(RunReport.text(trace: "drive", run: cell.run, metrics: metrics).contains("from the truth at the median"))
        #expect(RunReport.text(trace: "drive", run: cell.run, metrics: metrics).contains("position error against the truth"))
    }

    @Test(
        "the warnings' lines: at the threshold no warning, just past it one",
        arguments: [
            (1.05, 0.5, 100.0, [TraceWarning.Code]()),
            (1.0501, 0.5, 100.0, [.pathBeyondTrace]),
            (1.0, 0.4999, 100.0, [.idealKeptUnderHalf]),
            (1.0, 0.5, 100.01, [.farFromTrace]),
        ])
    func thresholds(path: Double, idealShare: Double, error: Double, expected: [TraceWarning.Code]) {
        var metrics = Metrics()
        metrics.idealAcceptedFixes = 10
        metrics.acceptedFixes = 10
        metrics.tracePathMeters = 1_000
        metrics.keptPathMeters = path * 1_000
        metrics.tracePathRatio = path
        metrics.idealKeptPathMeters = idealShare * 1_000
        metrics.positionErrorMedianMeters = error
        #expect(TraceWarning.warnings(run: metrics, scenario: "s").map(\.code) == expected)
    }

    @Test("a trace of no length has no path ratio and no path warning; an ideal run of no fix still warns")
    func traceOfNoLength() {
        var metrics = Metrics()
        metrics.keptPathMeters = 5
        #expect(TraceWarning.warnings(run: metrics, scenario: "s").map(\.code) == [.idealKeptNothing])
        metrics.idealAcceptedFixes = 1
        #expect(TraceWarning.warnings(run: metrics, scenario: "s").isEmpty)
    }

    @Test("tune pools the trace ratios as sums over sums")
    func tunePoolsTraceRatios() throws {
        var first = Metrics()
        first.keptPathMeters = 900
        first.tracePathMeters = 1_000
        first.coveredSeconds = 50
        first.traceCoveredSeconds = 100
        var second = Metrics()
        second.keptPathMeters = 100
        second.tracePathMeters = 3_000
        second.coveredSeconds = 150
        second.traceCoveredSeconds = 300
        var pool = Tuning.Pool(first, traceSeconds: 100, truthLengthMeters: nil, errors: nil)
        pool.add(Tuning.Pool(second, traceSeconds: 300, truthLengthMeters: nil, errors: nil))
        #expect(pool.value(of: .tracePathRatio) == 0.25)
        #expect(pool.value(of: .traceTimeCoverage) == 0.5)
        #expect(Tuning.Pool().value(of: .tracePathRatio) == nil)
        #expect(Tuning.Metric(rawValue: "tracePathRatio") == .tracePathRatio)
    }
}

/// The run JSON's new members read back by `summarize` and `merge`'s readers: every malformed,
/// empty, hostile or wrongly typed value is an error naming the line and the key.
@Suite("Runs against the trace: saved runs read back")
struct TraceReferenceSavedRunTests {
    /// A real run's JSON line, with a warning, from the golden fixture's matrix.
    static let line: String = {
        do {
            guard var cell = try Fixture.matrix().run().cells.first else { fatalError("fixture matrix: no run") }
            cell.metrics.tracePathRatio = 1.2
            cell.metrics.keptPathMeters = 1.2 * cell.metrics.tracePathMeters
            return MatrixReport.jsonRun(cell, trace: "a.csv")
        } catch {
            fatalError("fixture matrix: \(error)")
        }
    }()

    static func read(_ line: String) -> Result<MatrixTable.Row, ConfigError> {
        do throws(ConfigError) {
            return .success(
                try MatrixTable.Row(runJSON: Array(line.utf8)[...], scenarioIndex: 0, file: "runs.jsonl", line: 7))
        } catch {
            return .failure(error)
        }
    }

    @Test("a written run is read back with its reference and its warning")
    func readBack() throws {
        #expect(Self.line.contains(#""positionErrorReference":"trace","warnings":[{"code":"pathBeyondTrace","#))
        let row = try Self.read(Self.line).get()
        #expect(row.metrics.positionErrorReference == .trace)
        #expect(row.metrics.tracePathRatio == 1.2)
        let nulled = Self.line.replacingOccurrences(
            of: #""positionErrorReference":"trace""#, with: #""positionErrorReference":null"#)
        #expect(try Self.read(nulled).get().metrics.positionErrorReference == nil)
    }

    @Test(
        "a malformed reference, warning or trace metric is refused at its line, naming the key",
        arguments: [
            (#""positionErrorReference":"trace""#, #""positionErrorReference":"gps""#, "$.positionErrorReference: expected one of"),
            (#""positionErrorReference":"trace""#, #""positionErrorReference":"""#, "$.positionErrorReference: expected one of"),
            (#""positionErrorReference":"trace""#, #""positionErrorReference":3"#, "$.positionErrorReference: expected a string"),
            (#""positionErrorReference":"trace","#, "", "missing required key 'positionErrorReference'"),
            (#""warnings":[{"#, #""warnings":[1,{"#, "$.warnings[0]: expected an object"),
            (#""code":"pathBeyondTrace""#, #""code":"nope""#, "$.warnings[0].code: expected one of idealKeptNothing"),
            (#""code":"pathBeyondTrace""#, #""code":7"#, "$.warnings[0].code: expected a string"),
            (#""code":"pathBeyondTrace","#, "", "$.warnings[0]: missing required key 'code'"),
            (#""severity":"warning""#, #""severity":"fatal""#, "$.warnings[0].severity: 'fatal' is not one of: error, warning"),
            (#""severity":"warning","#, "", "$.warnings[0]: missing required key 'severity'"),
            (#""warnings":[{"#, #""warnings":[{"extra":true,"#, "$.warnings[0].extra: unknown key"),
            (#""tracePathRatio":1.2"#, #""tracePathRatio":"high""#, "$.metrics.tracePathRatio"),
            (#""tracePathMeters":"#, #""tracePathMetres":"#, "$.metrics.tracePathMetres: unknown key"),
        ])
    func hostile(original: String, replacement: String, problem: String) throws {
        #expect(Self.line.contains(original), "\(original)")
        let hostile = Self.line.replacingOccurrences(of: original, with: replacement)
        guard case .failure(let error) = Self.read(hostile) else {
            Issue.record("\(replacement) was read")
            return
        }
        #expect(error.line == 7)
        #expect(error.description.hasPrefix("runs.jsonl:7:"), "\(error)")
        #expect(error.description.contains(problem), "\(error)")
    }
}
