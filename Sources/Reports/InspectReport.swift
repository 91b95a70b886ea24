import SimulationCore
import Traces

/// The renderings of a `TraceSummary`: JSON (a contract), text and a table (for people).
public enum InspectReport {
    /// The JSON object documented in the README, without the keys of several tracks. The
    /// first keys are the contract; the ones after `untimed` are extras that may grow.
    static func singleTrackJSON(file: String, summary: TraceSummary) -> JSONText {
        let diagnostics = summary.diagnostics
        let skips = diagnostics.sortedSkips
        let keys: [(String, JSONText)] = [
            ("file", .string(file)),
            ("format", .string(summary.format.rawValue)),
            ("fixes", .integer(summary.fixCount)),
            ("byProvider", .object(summary.fixesByProvider.map { ($0.provider.name, .integer($0.count)) })),
            ("first", summary.first.map { .string(ISO8601.format($0)) } ?? .null),
            ("last", summary.last.map { .string(ISO8601.format($0)) } ?? .null),
            ("durationSeconds", .number(summary.durationSeconds)),
            ("medianIntervalSeconds", summary.medianIntervalSeconds.map { .number($0) } ?? .null),
            ("accuracy", .string(summary.accuracyKind.name)),
            ("speed", .bool(summary.hasSpeed)),
            ("course", .bool(summary.hasCourse)),
            ("altitude", .bool(summary.hasAltitude)),
            ("motionSamples", .integer(summary.motionSampleCount)),
            ("skipped", .object(skips.map { ($0.reason.rawValue, .integer($0.tally.count)) })),
            ("merged", .integer(diagnostics.merged.count)),
            ("untimed", .integer(diagnostics.untimed.count)),
            ("schemaVersion", .integer(1)),
            ("outOfOrder", .integer(diagnostics.outOfOrder.count)),
            (
                "accuracyByKind",
                .object(
                    [AccuracyKind.meters, .dilution, .none].map {
                        ($0.name, .integer(summary.fixesByAccuracyKind[$0] ?? 0))
                    })
            ),
            ("accuracyIsEstimated", .bool(summary.accuracyKind == .dilution)),
            ("verticalAccuracy", .bool(summary.hasVerticalAccuracy)),
            ("speedAccuracy", .bool(summary.hasSpeedAccuracy)),
            ("courseAccuracy", .bool(summary.hasCourseAccuracy)),
            ("device", summary.device.map { .string($0) } ?? .null),
            (
                "firstLines",
                .object(
                    skips.map { ($0.reason.rawValue, lines($0.tally)) }
                        + [
                            ("merged", lines(diagnostics.merged)), ("untimed", lines(diagnostics.untimed)),
                            ("outOfOrder", lines(diagnostics.outOfOrder)),
                        ])
            ),
        ]
        return adding(diagnostics.untimedRuns, to: .object(keys + problems(diagnostics)))
    }

    private static func lines(_ tally: LineTally) -> JSONText { .array(tally.firstLines.map { .integer($0) }) }

    /// A labelled block for a terminal; `options` are the ones the trace was imported with,
    /// so the advice it gives (pass `--date`, `--assume-rate`) fits what was done.
    public static func text(file: String, summary: TraceSummary, options: ImportOptions) -> String {
        var rows: [(String, String)] = []
        rows.append(("format", summary.format.rawValue + (summary.device.map { " (\($0))" } ?? "")))
        let providers = summary.fixesByProvider.map { "\($0.provider.name) \($0.count)" }.joined(separator: ", ")
        rows.append(("fixes", summary.fixCount == 0 ? "0" : "\(summary.fixCount) (\(providers))"))
        if let first = summary.first, let last = summary.last {
            rows.append(
                (
                    "span",
                    "\(ISO8601.format(first)) → \(ISO8601.format(last)) (\(Formatting.compactDuration(summary.durationSeconds)))"
                ))
        }
        if let median = summary.medianIntervalSeconds {
            rows.append(("interval", "median \(Formatting.compactDuration(median))"))
        }
        var fields: [String] = []
        if summary.hasAltitude { fields.append("altitude") }
        if summary.hasSpeed { fields.append("speed") }
        if summary.hasCourse { fields.append("course") }
        if summary.hasVerticalAccuracy { fields.append("vertical accuracy") }
        if summary.hasSpeedAccuracy { fields.append("speed accuracy") }
        if summary.hasCourseAccuracy { fields.append("course accuracy") }
        rows.append(("fields", fields.isEmpty ? "position and time only" : fields.joined(separator: ", ")))
        rows.append(("accuracy", accuracyText(summary)))
        rows.append(("motion", "\(summary.motionSampleCount) samples"))

        let diagnostics = summary.diagnostics
        if diagnostics.skipped.isEmpty {
            rows.append(("skipped", "none"))
        } else {
            for (reason, tally) in diagnostics.sortedSkips {
                let place = diagnostics.firstProblems[reason].map { skippedPlaceText(tally, $0) } ?? linesText(tally)
                rows.append(("skipped", "\(tally.count) \(reasonText(reason, count: tally.count))\(place)"))
            }
        }
        let across = diagnostics.mergedAcrossTracks.count
        let acrossText = across == 0 ? "" : "; \(across) of them from another track, at a time both tracks have"
        rows.append(
            (
                "merged",
                "\(diagnostics.merged.count) duplicate record\(diagnostics.merged.count == 1 ? "" : "s") of an epoch\(linesText(diagnostics.merged))\(acrossText)"
            ))
        var untimed = "\(diagnostics.untimed.count)\(linesText(diagnostics.untimed))"
        if diagnostics.untimed.count > 0, summary.format == .nmea || summary.format == .gnssLoggerNMEA,
            options.nmeaStartDate == nil
        {
            untimed += "; these NMEA epochs have no valid date: pass --date YYYY-MM-DD"
        }
        rows.append(("untimed", untimed))
        if let row = untimedRunsText(diagnostics.untimedRuns, options: options) { rows.append(("untimed runs", row)) }
        if diagnostics.outOfOrder.count > 0 {
            rows.append(
                (
                    "reordered",
                    "\(diagnostics.outOfOrder.count) records were out of time order\(linesText(diagnostics.outOfOrder))"
                ))
        }
        rows += trackRows(summary)
        var table = TextTable(rows.map { [$0.0, $0.1] }, alignments: [.left, .unpadded])
        table.indent = "  "
        return rows.isEmpty ? file : file + "\n" + table.rendered
    }

    /// A file (or one track of it, `FILE#N`) and what it holds: a row of `table`.
    public struct Row: Sendable {
        /// The name the row gives.
        public var file: String
        /// What the file holds.
        public var summary: TraceSummary

        /// A row.
        public init(file: String, summary: TraceSummary) {
            self.file = file
            self.summary = summary
        }
    }

    /// One row per file, aligned, for comparing many traces at a glance.
    public static func table(_ rows: [Row]) -> String {
        let header = [
            "file", "format", "fixes", "providers", "duration", "interval", "accuracy", "skipped",
            "merged", "untimed", "motion",
        ]
        var cells: [[String]] = [header]
        for row in rows {
            let (file, summary) = (row.file, row.summary)
            let diagnostics = summary.diagnostics
            let skipped = diagnostics.sortedSkips.map { "\($0.tally.count) \($0.reason.rawValue)" }.joined(
                separator: ", ")
            cells.append([
                file, summary.format.rawValue, String(summary.fixCount),
                summary.fixesByProvider.map(\.provider.name).joined(separator: "+"),
                summary.fixCount == 0 ? "-" : Formatting.compactDuration(summary.durationSeconds),
                summary.medianIntervalSeconds.map(Formatting.compactDuration) ?? "-",
                summary.accuracyKind.name, skipped.isEmpty ? "0" : skipped, String(diagnostics.merged.count),
                String(diagnostics.untimed.count + diagnostics.untimedRuns.records - diagnostics.untimedRuns.timed),
                String(summary.motionSampleCount),
            ])
        }
        let numeric: Set<Int> = [2, 8, 9, 10]
        var table = TextTable(cells, alignments: header.indices.map { numeric.contains($0) ? .right : .left })
        table.trimsTrailingSpaces = true
        return table.rendered
    }

    private static func accuracyText(_ summary: TraceSummary) -> String {
        let measured = summary.fixesByAccuracyKind[.meters] ?? 0
        let dilution = summary.fixesByAccuracyKind[.dilution] ?? 0
        var parts: [String] = []
        if measured > 0 { parts.append("\(measured) measured in metres") }
        if dilution > 0 { parts.append("\(dilution) HDOP only (metres are estimated: HDOP × UERE)") }
        let none = summary.fixCount - measured - dilution
        if none > 0 { parts.append("\(none) none") }
        return "\(summary.accuracyKind.name): " + (parts.isEmpty ? "no fixes" : parts.joined(separator: ", "))
    }

    private static func reasonText(_ reason: SkipReason, count: Int) -> String {
        let plural = count != 1
        return switch reason {
        case .badChecksum: "bad NMEA checksum"
        case .missingChecksum: "NMEA sentence\(plural ? "s" : "") without checksum"
        case .noFix: "no-fix or void record\(plural ? "s" : "")"
        case .noPosition: "point\(plural ? "s" : "") without a position"
        case .waypoint: "GPX waypoint\(plural ? "s" : "") (<wpt>: marked places, not recorded fixes; only <trkpt> is)"
        case .routePoint:
            "GPX route point\(plural ? "s" : "") (<rtept>: a planned route, not recorded fixes; only <trkpt> is)"
        case .outOfRange: "record\(plural ? "s" : "") with a value out of range"
        case .malformedField: "record\(plural ? "s" : "") with an unreadable field"
        }
    }

    static func linesText(_ tally: LineTally) -> String {
        guard !tally.firstLines.isEmpty else { return "" }
        let label = tally.firstLines.count == 1 ? "line" : "lines"
        let more = tally.count > tally.firstLines.count ? ", ..." : ""
        return " (\(label) \(tally.firstLines.map(String.init).joined(separator: ", "))\(more))"
    }

}
