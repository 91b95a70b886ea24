import Fleet
import Scenarios
import Traces

/// The import options shared by every command that reads traces.
enum ImportArguments {
    /// `<trace>` of the commands that replay one trace.
    static let oneTrace = CommandDeclaration.Positional(
        label: "<trace>",
        help: "A trace file in any format 'tracesim inspect' reads.\n" + StandardInputArguments.helpLines)

    /// `<trace> ...` of the commands that read several.
    static let traces = CommandDeclaration.Positional(
        label: "<trace>",
        help: "Trace files in any format 'tracesim inspect' reads.\n" + StandardInputArguments.helpLines,
        isRepeated: true)

    /// The import options, in the order help lists them.
    static let declared: [CommandDeclaration.Option] = [
        .init(
            name: "date", value: "<YYYY-MM-DD>",
            help: """
                UTC date of the first epoch, for NMEA logs with no valid date
                anywhere (GGA-only logs, every RMC failing its checksum). Logs that
                date themselves ignore it; without either, epochs are untimed.
                Also where --assume-rate starts a file with no valid time.
                """),
        .init(
            name: "assume-rate", value: "<HZ>",
            help: """
                Time untimed runs (10 or more records of one timestamp spread
                over more than 100 m) at HZ records a second, 1e-9 <= HZ <= 100
                (a longer period than 1e9 s leaves TraceSim's clock):
                from one period after the time read before a run, else ending
                one period before the first timed record, else from midnight UTC
                of --date. Without it such runs are counted, not replayed.
                """),
        .init(
            name: "input-format", value: "<name>",
            help: "Read the input as this format instead of detecting it. One of:\n" + formatList),
        .flag(
            "strict",
            help: """
                Fail on the first record with an impossible field (NMEA minutes
                60.0000, latitude 91, a CSV cell or JSON Lines value out of range or
                not a number) instead of skipping and counting it. Without it, NMEA,
                CSV and JSON Lines files fail only when no valid record is left.
                """),
        TrackArguments.declared,
    ]

    /// The format names, wrapped to the help text's column.
    private static var formatList: String {
        var lines: [String] = []
        var line = ""
        for name in TraceFormat.allCases.map(\.rawValue) {
            let candidate = line.isEmpty ? name : line + ", " + name
            if candidate.count > 62 {
                lines.append(line + ",")
                line = name
            } else {
                line = candidate
            }
        }
        lines.append(line + ".")
        return lines.joined(separator: "\n")
    }

    /// The highest `--assume-rate`: faster than any receiver logs, so a larger value is a typo.
    static let maximumAssumedRate = 100.0

    /// The lowest `--assume-rate`: one record in 1e9 s (31.7 years). The clock spans 1677 to
    /// 2262, and a period much longer leaves it after a record or two, so a slower rate would
    /// time nothing and only leave the runs out again.
    static let minimumAssumedRate = 1e-9

    static func options(from arguments: ParsedArguments, command: String) throws(UsageError) -> ImportOptions {
        var options = ImportOptions()
        if let text = arguments.value("date") {
            guard let date = CalendarDate(text) else {
                throw UsageError("--date '\(MessageText.value(text))' is not a YYYY-MM-DD date", command: command)
            }
            // A day the clock cannot hold from end to end would date fixes it cannot represent.
            guard date.isWholeDayRepresentable else {
                let range = CalendarDate.wholeDayRange
                throw UsageError(
                    "--date '\(text)' is outside \(range.first) to \(range.last), the days TraceSim's clock represents",
                    command: command)
            }
            options.nmeaStartDate = date
        }
        if let name = arguments.value("input-format") {
            guard let format = TraceFormat(rawValue: name) else {
                let names = TraceFormat.allCases.map(\.rawValue)
                let nearest = names.min { editDistance($0, name) < editDistance($1, name) } ?? ""
                throw UsageError("unknown input format '\(name)' (did you mean '\(nearest)'?)", command: command)
            }
            options.format = format
        }
        if let text = arguments.value("assume-rate") {
            options.assumedRate = try NumberArgument.decimal(
                text, option: "--assume-rate", unit: "in Hz",
                range: "from 1e-9 (a longer period than 1e9 s leaves TraceSim's clock) to 100", command: command
            ) { (minimumAssumedRate...maximumAssumedRate).contains($0) }
        }
        options.trackOrder = try TrackArguments.order(from: arguments, command: command)
        options.strict = arguments.flag("strict")
        return options
    }
}

/// Loads a trace, turning failures into the CLI's exit codes and one-line messages.
enum TraceLoading {
    /// Loads a trace to replay: one without a timed fix is reported here and fails with 65.
    static func loadReplayable(_ path: String, options: ImportOptions, console: Console) throws(CommandFailure)
        -> Trace
    {
        try replayable(try load(path, options: options, console: console), path: path, options: options)
    }

    /// Loads one input of a fleet (`matrix`, `tune`), with the fleet's rule for inputs that give no fix:
    /// `nil` for one that holds no record at all (a header alone, an empty track), which the
    /// fleet skips; a failure, as `loadReplayable`, for one whose records cannot be read or
    /// give no timed fix (NMEA without `--date`).
    static func loadFleetInput(_ path: String, options: ImportOptions, console: Console) throws(CommandFailure)
        -> Trace?
    {
        let trace = try load(path, options: options, console: console)
        return holdsNoRecord(trace) ? nil : try replayable(trace, path: path, options: options)
    }

    /// The note for an input `loadFleetInput` skips.
    static func skippedNote(_ path: String) -> String {
        "note: \(TraceFile.displayName(forPath: path)): \(Matrix.ClosingRecord.noRecordsReason) (a header alone?); skipped"
    }

    /// Whether the importer found nothing in `trace` that might have been a fix: no fix, no
    /// motion sample, and no record skipped, merged, untimed or out of order.
    static func holdsNoRecord(_ trace: Trace) -> Bool {
        let diagnostics = trace.diagnostics
        return trace.fixes.isEmpty && trace.motionSamples.isEmpty && diagnostics.skipped.isEmpty
            && diagnostics.merged.count == 0 && diagnostics.untimed.count == 0 && diagnostics.outOfOrder.count == 0
            && diagnostics.untimedRuns.records == 0
    }

    /// `trace`, or the failure (65) of one without a timed fix, with a hint when untimed runs
    /// could be timed.
    private static func replayable(_ trace: Trace, path: String, options: ImportOptions) throws(CommandFailure)
        -> Trace
    {
        if trace.fixes.isEmpty {
            let runs = trace.diagnostics.untimedRuns
            // With no fix left there is no real time either, so the rate alone would not do.
            let needs = options.nmeaStartDate == nil ? "--assume-rate HZ and --date YYYY-MM-DD" : "--assume-rate HZ"
            let hint = runs.records > runs.timed ? "; untimed runs found: pass \(needs) to time them" : ""
            throw CommandFailure(
                .dataError, "error: \(MessageText.path(path)): no timed fixes to replay\(hint)")
        }
        return trace
    }

    /// Loads a trace and says on standard error what a replay of it would not show: tracks that
    /// overlap (unless `warnsAboutTracks` is false), and (unless `notesUntimedRuns` is false, as
    /// for `inspect`, which reports them itself) records of untimed runs left out while other
    /// fixes remain.
    static func load(
        _ path: String, options: ImportOptions, console: Console, notesUntimedRuns: Bool = true,
        warnsAboutTracks: Bool = true
    ) throws(CommandFailure) -> Trace {
        do {
            let trace = try TraceImporter.load(path: path, options: options)
            if warnsAboutTracks {
                TrackArguments.warnAboutOverlaps(trace, path: path, options: options, console: console)
            }
            let impossible = [SkipReason.outOfRange, .malformedField].compactMap { trace.diagnostics.skipped[$0] }
            let skippedCount = impossible.reduce(0) { $0 + $1.count }
            if notesUntimedRuns, skippedCount > 0 {
                let first = impossible.compactMap(\.firstLines.first).min() ?? 0
                console.warn(
                    "note: \(MessageText.path(path)): \(skippedCount) record\(skippedCount == 1 ? "" : "s") "
                        + "with an impossible field skipped (first at line \(first)); --strict refuses them")
            }
            let runs = trace.diagnostics.untimedRuns
            if notesUntimedRuns, !trace.fixes.isEmpty, runs.records > runs.timed {
                let left = runs.records - runs.timed
                // With a rate, the records left are those whose times would leave the clock.
                var advice = "pass --assume-rate HZ to time them"
                if let rate = options.assumedRate {
                    let shown = rate == rate.rounded() && rate < 1e15 ? String(Int64(rate)) : Self.decimal(rate)
                    advice =
                        "at --assume-rate \(shown) their times would leave TraceSim's clock "
                        + "(\(CalendarDate.wholeDayRange.first) to \(CalendarDate.wholeDayRange.last))"
                }
                console.warn(
                    "note: \(MessageText.path(path)): \(left) record\(left == 1 ? "" : "s") of untimed "
                        + "runs left out (first at line \(runs.runs.firstLines.first ?? 0)); \(advice)")
            }
            return trace
        } catch var error as TraceFormatError {
            error.file = MessageText.path(error.file)
            throw CommandFailure(.dataError, "error: \(error)")
        } catch var error as TraceFileError {
            error.file = MessageText.path(error.file)
            throw CommandFailure(.noInput, "error: \(error)")
        } catch {
            throw CommandFailure(.dataError, "error: \(MessageText.path(path)): \(error)")
        }
    }

    /// `value` as the number grammar spells it: `1e-9`, not Swift's `1e-09`.
    static func decimal(_ value: Double) -> String {
        "\(value)".replacingOccurrences(of: "e-0", with: "e-").replacingOccurrences(of: "e+", with: "e")
    }
}
