import Scenarios
import SimulationCore

/// The words of `TraceWarning`, in every format: a `WARNING:` line of text, a JSON object with
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

    /// `WARNING: ` and the message, one line per warning.
    static func lines(_ warnings: [TraceWarning]) -> [String] {
        warnings.map { "WARNING: " + message($0) }
    }

    /// The lines after a blank line, empty without warnings.
    static func text(_ warnings: [TraceWarning]) -> String {
        warnings.isEmpty ? "" : "\n\n" + lines(warnings).joined(separator: "\n")
    }

    /// `"warnings": [{"code", "subject", "message"}]` for a run's JSON; nothing without
    /// warnings, so a run with none keeps its bytes.
    static func jsonMember(_ warnings: [TraceWarning]) -> [(String, JSONText)] {
        guard !warnings.isEmpty else { return [] }
        return [
            (
                "warnings",
                .array(
                    warnings.map {
                        .object([
                            ("code", .string($0.code.rawValue)), ("subject", .string($0.subject)),
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
