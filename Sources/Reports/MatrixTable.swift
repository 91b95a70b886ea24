import Engine
import Fleet
import Scenarios

/// The runs of a matrix as its tables need them: names, metrics and reference, rounded as the
/// run JSON writes them. The matrix fills one as its runs stream past, and `tracesim summarize`
/// fills one from saved JSON Lines, so both print the same tables byte for byte.
///
/// A row is a few hundred bytes whatever the trace's length: a matrix of a fleet keeps its
/// table, never its runs.
public struct MatrixTable: Sendable {
    /// One run of the matrix, as the tables read it.
    public struct Row: Sendable, Equatable {
        /// The trace's name (`"trace"` in JSON).
        public var trace: String
        /// The scenario's index in `MatrixTable.scenarios`.
        public var scenarioIndex: Int
        /// The seed the run used.
        public var seed: UInt64
        /// The run against its ideal run, rounded as written.
        public var metrics: Metrics
        /// What the ideal run measured, rounded as written.
        public var reference: ReferenceMetrics
        /// What the engine under test reported: each message and how often.
        public var diagnostics: [DiagnosticCount]
        /// What the engine under test reported beyond the messages a run keeps.
        public var droppedDiagnostics: DroppedDiagnostics
        /// What TraceSim noticed about the run (`ScenarioRun.notes`), each note's message.
        public var notes: [String] = []

        /// A row as saved runs give it; the values are taken as written.
        public init(
            trace: String, scenarioIndex: Int, seed: UInt64, metrics: Metrics, reference: ReferenceMetrics,
            diagnostics: [DiagnosticCount] = [], droppedDiagnostics: DroppedDiagnostics = DroppedDiagnostics()
        ) {
            self.trace = trace
            self.scenarioIndex = scenarioIndex
            self.seed = seed
            self.metrics = metrics
            self.reference = reference
            self.diagnostics = diagnostics
            self.droppedDiagnostics = droppedDiagnostics
        }

        /// The row of a run of the matrix, under the trace name `trace`.
        public init(_ cell: Matrix.Cell, trace: String) {
            self.init(
                trace: trace, scenarioIndex: cell.scenarioIndex, seed: cell.run.seed,
                metrics: RunReport.roundedAsWritten(cell.metrics),
                reference: RunReport.roundedAsWritten(cell.reference),
                diagnostics: cell.run.diagnostics.map { DiagnosticCount(message: $0.message, count: $0.count) },
                droppedDiagnostics: cell.run.droppedDiagnostics)
            notes = cell.run.notes.map(\.message)
        }
    }

    /// A message an engine under test reported, and how many times in one run.
    public struct DiagnosticCount: Sendable, Equatable {
        /// What the engine said.
        public var message: String
        /// How many times in the run.
        public var count: Int

        /// A message and its count.
        public init(message: String, count: Int) {
            self.message = message
            self.count = count
        }
    }

    /// The scenarios' names, in the matrix's order.
    public var scenarios: [String]
    /// The runs in output order: trace order, then scenario order.
    public private(set) var rows: [Row] = []
    /// The traces with runs, in order (a file given twice is two traces).
    public private(set) var traces: [String] = []
    /// Where each trace's rows begin in `rows`.
    private var traceStarts: [Int] = []

    /// An empty table of `scenarios`.
    public init(scenarios: [String]) {
        self.scenarios = scenarios
    }

    /// The table of a matrix's runs in memory.
    public init(_ result: MatrixResult) {
        self.init(scenarios: result.matrix.scenarios.map(\.scenario.name))
        for cell in result.cells {
            append(Row(cell, trace: result.matrix.traces[cell.traceIndex].name))
        }
    }

    /// Adds the next run in output order.
    public mutating func append(_ row: Row) {
        // A trace's runs come in scenario order, so a scenario that does not follow the last one
        // begins the next trace, even one of the same name.
        if let last = rows.last, last.trace == row.trace, last.scenarioIndex < row.scenarioIndex {
            rows.append(row)
            return
        }
        traces.append(row.trace)
        traceStarts.append(rows.count)
        rows.append(row)
    }

    /// Each scenario with its runs' metrics, in trace order.
    public var metricsByScenario: [ScenarioMetrics] {
        var metrics = [[Metrics]](repeating: [], count: scenarios.count)
        for row in rows where metrics.indices.contains(row.scenarioIndex) {
            metrics[row.scenarioIndex].append(row.metrics)
        }
        return zip(scenarios, metrics).map { ScenarioMetrics(scenario: $0, metrics: $1) }
    }

    /// The reference rows: each ideal run measured against itself, in trace order, so a table
    /// can show what 100 % is. Scenarios whose ideal runs measure the same share one row named
    /// `ideal`; when they differ, each row is named for the first scenario it is the reference
    /// of (`ReferenceMetrics.name`). None when the matrix runs the `ideal` preset itself and it
    /// measures the same.
    public var idealMetrics: [ScenarioMetrics] {
        let found = referenceRows
        // `--scenarios ideal,...` already has the row.
        if found.count == 1, let named = scenarios.firstIndex(of: "ideal"),
            MetricsSummary(metricsByScenario[named].metrics) == MetricsSummary(found[0].metrics)
        {
            return []
        }
        return found
    }

    /// The warnings against the trace (`TraceWarning`): each reference row's (whether or not
    /// the table shows it) and each scenario row's, pooled over traces.
    public var traceWarnings: [TraceWarning] {
        TraceWarning.warnings(ideal: referenceRows, scenarios: metricsByScenario)
    }

    /// The reference rows, `ideal` when there is one, before `idealMetrics` leaves out a row the
    /// matrix's own `ideal` scenario already shows.
    private var referenceRows: [ScenarioMetrics] {
        var byScenario = [[Metrics]](repeating: [], count: scenarios.count)
        var names = [String?](repeating: nil, count: scenarios.count)
        for row in rows where byScenario.indices.contains(row.scenarioIndex) {
            byScenario[row.scenarioIndex].append(Self.idealMetrics(row))
            names[row.scenarioIndex] = names[row.scenarioIndex] ?? row.reference.name
        }
        var found: [(name: String, metrics: [Metrics])] = []
        for (index, metrics) in byScenario.enumerated() where !metrics.isEmpty {
            guard !found.contains(where: { $0.metrics == metrics }) else { continue }
            found.append((names[index] ?? "ideal", metrics))
        }
        return found.map { ScenarioMetrics(scenario: found.count == 1 ? "ideal" : $0.name, metrics: $0.metrics) }
    }

    /// One trace's table (`--per-trace`): its reference rows, then a row per scenario holding
    /// that trace's run alone.
    public struct TraceMetrics: Sendable {
        /// The trace's name.
        public var trace: String
        /// The reference rows, as `idealMetrics` for this trace alone.
        public var ideal: [ScenarioMetrics]
        /// A row per scenario.
        public var scenarios: [ScenarioMetrics]

        /// The table's rows: the reference rows first.
        public var rows: [ScenarioMetrics] { ideal + scenarios }
    }

    /// Each trace's table, in trace order.
    public var metricsByTrace: [TraceMetrics] {
        let ideal = idealMetrics
        let ends = traceStarts.dropFirst() + [rows.count]
        return traces.enumerated().map { offset, trace in
            TraceMetrics(
                trace: trace,
                ideal: ideal.compactMap { row in
                    row.metrics.indices.contains(offset)
                        ? ScenarioMetrics(scenario: row.scenario, metrics: [row.metrics[offset]]) : nil
                },
                scenarios: rows[traceStarts[offset]..<ends[ends.startIndex + offset]].map {
                    ScenarioMetrics(scenario: scenarios[$0.scenarioIndex], metrics: [$0.metrics])
                })
        }
    }

    /// The ideal run of `row` measured against itself, from what the row carries: the sums the
    /// table pools, and the reference's gap, rejections and departure.
    private static func idealMetrics(_ row: Row) -> Metrics {
        var metrics = row.metrics
        metrics.recordedFixes = 0
        metrics.deliveredFixes = 0
        metrics.acceptedFixes = metrics.idealAcceptedFixes
        metrics.collectionRatio = metrics.idealAcceptedFixes == 0 ? nil : 1
        metrics.coveredSeconds = metrics.idealCoveredSeconds
        metrics.timeCoverage = 0
        metrics.maxGapSeconds = row.reference.maxGapSeconds
        metrics.maxGapStartSeconds = 0
        metrics.distanceMeters = metrics.idealDistanceMeters
        metrics.distanceRatio = metrics.idealDistanceMeters <= 0 ? nil : 1
        metrics.rejectedByReason = [Metrics.ReasonCount(reason: "all", count: row.reference.rejectedFixes)]
        metrics.geofenceEvents = 0
        metrics.geofenceMissed = 0
        metrics.geofenceSpurious = 0
        metrics.geofenceMeanDelaySeconds = 0
        metrics.geofenceMaxDelaySeconds = 0
        metrics.departureDelaySeconds = row.reference.departed ? 0 : nil
        metrics.arrivalDelaySeconds = nil
        metrics.missedStops = 0
        metrics.gpsOnSeconds = metrics.idealGpsOnSeconds
        metrics.gpsHoursPerObservedHour =
            metrics.observedSeconds > 0 ? metrics.idealGpsOnSeconds / metrics.observedSeconds : nil
        metrics.positionErrorMedianMeters = nil
        metrics.positionErrorP95Meters = nil
        metrics.positionErrorReference = nil
        idealAgainstTrace(&metrics)
        return metrics
    }

    /// The ideal run's own share of the trace, from the sums a row carries: what a custom
    /// engine's ideal row shows beside its 100 % against itself.
    private static func idealAgainstTrace(_ metrics: inout Metrics) {
        metrics.keptPathMeters = metrics.idealKeptPathMeters
        metrics.tracePathRatio =
            metrics.tracePathMeters > 0 ? metrics.idealKeptPathMeters / metrics.tracePathMeters : nil
        metrics.traceTimeCoverage =
            metrics.traceCoveredSeconds > 0 ? metrics.idealCoveredSeconds / metrics.traceCoveredSeconds : nil
    }
}
