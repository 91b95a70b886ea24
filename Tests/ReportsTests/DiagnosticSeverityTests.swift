import ConfigJSON
import Device
import Engine
import SimulationCore
import Testing

@testable import Reports
@testable import Scenarios

/// Issue 30 §5: errors first, then warnings, then one information line for the optional
/// callbacks an app leaves without a handler, in text, JSON and a matrix's summary.
@Suite("Diagnostic severities")
struct DiagnosticSeverityTests {
    static let start = SimInstant(nanosecondsSinceEpoch: 1_600_000_000_000_000_000)

    static func unhandled(_ callback: String) -> String {
        ClientDiagnostic.unhandledCallbackMessage(callback, delegate: "Tracker")
    }

    /// A run whose engine reported, in this order: an information line, a warning, an error,
    /// and a second unhandled callback that came far more often.
    static func run() -> ScenarioRun {
        var run = ScenarioRun(
            scenario: "x", seed: 0, traceStart: start, traceEnd: start.advanced(bySeconds: 60), flowSeconds: 0,
            recorder: Recorder(), gpsOn: GPSOnTime(), odometerMeters: 0, deliveryTimes: [], lifecycle: [],
            promptLog: [], wizardSteps: nil)
        run.diagnostics = [
            ClientDiagnostic(message: unhandled("locationManager(_:didVisit:)"), count: 2, firstTime: start),
            ClientDiagnostic(message: "upload queue full", count: 1, firstTime: start.advanced(bySeconds: 5)),
            ClientDiagnostic(message: "wall clock: Date() read", count: 3, firstTime: start.advanced(bySeconds: 7)),
            ClientDiagnostic(
                message: unhandled("locationManagerDidChangeAuthorization(_:)"), count: 294, firstTime: start),
        ]
        return run
    }

    @Test("the classification: prefixes make errors, optional unhandled callbacks information, the rest warnings")
    func classification() {
        #expect(ClientDiagnostic.severity(of: "wall clock: Date() read at +3 s") == .error)
        #expect(ClientDiagnostic.severity(of: "timer: Timer.scheduledTimer outside AppClock") == .error)
        #expect(ClientDiagnostic.severity(of: "main queue: DispatchQueue.main.asyncAfter") == .error)
        #expect(ClientDiagnostic.severity(of: "crash: fatalError in didUpdateLocations") == .error)
        #expect(ClientDiagnostic.severity(of: "a task the app started neither finished nor waited on x") == .error)
        // A prefix counts only at the start, and exactly.
        #expect(ClientDiagnostic.severity(of: "the wall clock: read") == .warning)
        #expect(ClientDiagnostic.severity(of: "Wall clock: read") == .warning)
        #expect(ClientDiagnostic.severity(of: "") == .warning)
        #expect(ClientDiagnostic.severity(of: Self.unhandled("locationManager(_:didVisit:)")) == .information)
        // Locations that reach no handler are lost: that matters.
        #expect(ClientDiagnostic.severity(of: Self.unhandled("locationManager(_:didUpdateLocations:)")) == .warning)
        // The suffix alone, without a callback before " reached ", is no unhandled callback.
        #expect(ClientDiagnostic.severity(of: "x, which has no handler for it") == .warning)
    }

    @Test("text: error, then warning, then one information line, most frequent callback first")
    func textOrder() {
        let lines = DiagnosticsReport.lines(Self.run())
        #expect(
            lines == [
                "error: 3× wall clock: Date() read (first at +7.0 s)",
                "warning: 1× upload queue full (first at +5.0 s)",
                "information: 2 optional callbacks without a handler in Tracker: "
                    + "locationManagerDidChangeAuthorization(_:) ×294, locationManager(_:didVisit:) ×2",
            ])
    }

    @Test("JSON: every message on its own with its severity, errors first")
    func jsonOrder() {
        let members = DiagnosticsReport.jsonMember(Self.run())
        let json = JSONText.object(members).rendered
        let severities = ["\"severity\":\"error\"", "\"severity\":\"warning\"", "\"severity\":\"information\""]
        let positions = severities.compactMap { json.range(of: $0)?.lowerBound }
        #expect(positions.count == 3)
        #expect(positions == positions.sorted(), "\(json)")
        #expect(json.components(separatedBy: "\"severity\":\"information\"").count == 3)
    }

    @Test("a matrix's summary sorts by severity over runs and collapses the callbacks into one line")
    func summaryOrder() {
        let kept = Self.run().diagnostics.map { MatrixTable.DiagnosticCount(message: $0.message, count: $0.count) }
        let lines = DiagnosticsReport.summaryLines([(kept, DroppedDiagnostics()), (kept, DroppedDiagnostics())])
        #expect(
            lines == [
                "engine diagnostic (error): 6× wall clock: Date() read, in 2 runs",
                "engine diagnostic (warning): 2× upload queue full, in 2 runs",
                "engine diagnostic (information): 2 optional callbacks without a handler in Tracker: "
                    + "locationManagerDidChangeAuthorization(_:) ×588 in 2 runs, locationManager(_:didVisit:) ×4 in 2 runs",
            ])
    }

    /// The run as `matrix --format jsonl` writes it, its first diagnostic's severity replaced by
    /// `member` (the run's warnings against the trace, before it, have severities of their own).
    static func savedRun(replacingFirstSeverityWith member: String) -> String {
        let run = run()
        let line = RunReport.jsonValue(
            trace: "t", run: run, metrics: Metrics(run, ideal: run),
            reference: ReferenceMetrics(name: "ideal", maxGapSeconds: 0, rejectedFixes: 0, departed: false)
        ).rendered
        guard let diagnostics = line.range(of: #""diagnostics":"#),
            let first = line.range(of: #""severity":"error","#, range: diagnostics.upperBound..<line.endIndex)
        else { return line }
        return line.replacingCharacters(in: first, with: member)
    }

    @Test("a saved run reads back with its severities, and without them (runs saved before severities)")
    func savedRunsRead() throws {
        for member in [#""severity":"error","#, ""] {
            let line = Self.savedRun(replacingFirstSeverityWith: member)
            let row = try MatrixTable.Row(runJSON: Array(line.utf8)[...], scenarioIndex: 0, file: "runs.jsonl", line: 3)
            #expect(row.diagnostics.map(\.count) == [3, 1, 2, 294])
        }
    }

    @Test(
        "a saved severity that is empty, unknown, hostile or not a string is an error naming file, line and key",
        arguments: [
            (#""severity":"","#, "'' is not one of: error, warning, information"),
            (#""severity":"fatal","#, "'fatal' is not one of: error, warning, information"),
            (#""severity":"<script>","#, "'<script>' is not one of: error, warning, information"),
            (#""severity":2,"#, "severity"),
            (#""severity":null,"#, "severity"),
        ])
    func savedSeverityRejected(member: String, failure: String) {
        let line = Self.savedRun(replacingFirstSeverityWith: member)
        #expect(line.contains(member))
        do {
            _ = try MatrixTable.Row(runJSON: Array(line.utf8)[...], scenarioIndex: 0, file: "runs.jsonl", line: 3)
            Issue.record("read \(member)")
        } catch {
            let message = "\(error)"
            #expect(message.contains(failure), "\(message)")
            #expect(message.hasPrefix("runs.jsonl:3:"), "\(message)")
            #expect(message.contains("$.diagnostics[0].severity"), "\(message)")
        }
    }
}
