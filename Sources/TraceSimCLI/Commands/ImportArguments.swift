import Traces

/// The import options shared by every command that reads traces.
enum ImportArguments {
    static let optionNames: Set<String> = ["date", "input-format"]
    /// The import options that take no value, with `ArgumentSpec`'s own.
    static let flagNames: Set<String> = ["help", "quiet", "strict"]

    static let helpLines = """
          --date <YYYY-MM-DD>     UTC date of the first epoch, for NMEA logs with no valid date
                                  anywhere (GGA-only logs, every RMC failing its checksum). Logs that
                                  date themselves ignore it; without either, epochs are untimed.
          --input-format <name>   Read the input as this format instead of detecting it. One of:
        \(formatList)
          --strict                Fail on the first record with an impossible field (NMEA minutes
                                  60.0000, latitude 91, a CSV cell or JSON Lines value out of range or
                                  not a number) instead of skipping and counting it. Without it, NMEA,
                                  CSV and JSON Lines files fail only when no valid record is left.
        """

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
        return lines.map { String(repeating: " ", count: 26) + $0 }.joined(separator: "\n")
    }

    static func options(from arguments: ParsedArguments, command: String) throws(UsageError) -> ImportOptions {
        var options = ImportOptions()
        if let text = arguments.value("date") {
            guard let date = CalendarDate(text) else {
                throw UsageError("--date '\(text)' is not a YYYY-MM-DD date", command: command)
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
        options.strict = arguments.flag("strict")
        return options
    }
}

/// Loads a trace, turning failures into the CLI's exit codes and one-line messages.
enum TraceLoading {
    enum Outcome {
        case loaded(Trace)
        /// The error was printed; the command should exit with this code.
        case failed(ExitCode)
    }

    /// Loads a trace to replay: one without a timed fix is reported here and fails with 65.
    static func loadReplayable(_ path: String, options: ImportOptions, console: Console) -> Outcome {
        let outcome = load(path, options: options, console: console)
        if case .loaded(let trace) = outcome, trace.fixes.isEmpty {
            console.warn("error: \(path): no timed fixes to replay")
            return .failed(.dataError)
        }
        return outcome
    }

    static func load(_ path: String, options: ImportOptions, console: Console) -> Outcome {
        do {
            return .loaded(try TraceImporter.load(path: path, options: options))
        } catch let error as TraceFormatError {
            console.warn("error: \(error)")
            return .failed(.dataError)
        } catch let error as TraceFileError {
            console.warn("error: \(error)")
            return .failed(.noInput)
        } catch {
            console.warn("error: \(path): \(error)")
            return .failed(.dataError)
        }
    }
}
