import Scenarios
import SimulationCore

/// The words of `TraceWarning`, in every format: a `WARNING:` (or, for an ideal run that kept
/// nothing, `ERROR:`) line of text, a JSON object with
/// its stable code, a Markdown line, an HTML banner (`HTMLReport+Warnings.swift`). Outputs
/// without warnings carry no trace of them.
enum TraceWarningReport {
    /// The warning as one sentence, without the `WARNING:` mark. The subject (a scenario's name,
    /// outside text) is escaped of control characters.
    static func message(_ warning: TraceWarning) -> String {
        let subject = VisibleText.escapingControls(warning.subject)
        let share = Formatting.percent(warning.value)
        let runs = warning.of > 1 ? " on \(warning.runs) of \(warning.of) traces" : ""
        switch warning.code {
        case .idealKeptNothing:
            return "\(subject): the engine's ideal run kept no fix\(runs), so every ratio against it is empty; "
                + "the engine keeps nothing even at its best"
        case .idealKeptUnderHalf:
            return "\(subject): the engine's ideal run kept \(share) of the trace's path (under "
                + "\(Formatting.percent(TraceWarning.idealShareFloor))), so 100 % of ideal is \(share) of the trace"
        case .pathBeyondTrace:
            let scope =
                warning.of > 1
                ? "\(share) of the traces' path pooled, over \(Formatting.percent(TraceWarning.pathCeiling))"
                    + "\(runs)"
                : "\(share) of the trace's path (over \(Formatting.percent(TraceWarning.pathCeiling)))"
            return "\(subject): kept path is \(scope): fixes off the trace (reduced-accuracy ones) "
                + "were counted as kept"
        case .farFromTrace:
            let reference = warning.reference == .truth ? "truth" : "trace"
            let worst = warning.of > 1 ? " (worst trace)" : ""
            return "\(subject): kept fixes are \(distance(warning.value)) from the \(reference) at the median"
                + "\(worst), over \(Formatting.fixed(TraceWarning.errorCeilingMeters, 0)) m\(runs)"
        }
    }

    /// `ERROR` for an ideal run that kept nothing, `WARNING` for the rest. Issue 30 §5 lists an
    /// ideal run that kept nothing among the errors: no figure of the row means anything, where
    /// the other warnings say how far to trust figures that do.
    static func mark(_ warning: TraceWarning) -> String {
        warning.code == .idealKeptNothing ? "ERROR" : "WARNING"
    }

    /// The warnings, errors first and otherwise in their order.
    static func sorted(_ warnings: [TraceWarning]) -> [TraceWarning] {
        warnings.filter { mark($0) == "ERROR" } + warnings.filter { mark($0) != "ERROR" }
    }

    /// `ERROR: ` or `WARNING: ` and the message, one line per warning, errors first.
    static func lines(_ warnings: [TraceWarning]) -> [String] {
        sorted(warnings).map { mark($0) + ": " + message($0) }
    }

    /// The lines after a blank line, empty without warnings.
    static func text(_ warnings: [TraceWarning]) -> String {
        warnings.isEmpty ? "" : "\n\n" + lines(warnings).joined(separator: "\n")
    }

    /// `"warnings": [{"code", "severity", "subject", "message"}]` for a run's JSON, errors
    /// first; nothing without warnings, so a run with none keeps its bytes.
    static func jsonMember(_ warnings: [TraceWarning]) -> [(String, JSONText)] {
        guard !warnings.isEmpty else { return [] }
        return [
            (
                "warnings",
                .array(
                    sorted(warnings).map {
                        .object([
                            ("code", .string($0.code.rawValue)), ("severity", .string(mark($0).lowercased())),
                            ("subject", .string($0.subject)),
                            ("message", .string(message($0))),
                        ])
                    })
            )
        ]
    }

    private static func distance(_ meters: Double) -> String {
        meters >= 1000 ? Formatting.fixed(meters / 1000, 1) + " km" : Formatting.fixed(meters, 0) + " m"
    }
}
