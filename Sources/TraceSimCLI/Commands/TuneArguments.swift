import Engine
import Fleet
import Scenarios
import SimulationCore

/// Reads `tune`'s sweeps, objectives, constraints and jobs, each mistake a usage error (64)
/// saying what is wrong.
enum TuneArguments {
    /// The settings `--sweep` may name on `engine`: the built-in engine's, and those a team's
    /// engine declares (an engine run as a command is started and asked).
    /// - Throws: `CommandFailure` 70 when the engine cannot be asked or declares a malformed
    ///   setting: the engine broke its side of the protocol.
    static func parameters(_ engine: EngineUnderTest) throws(CommandFailure) -> [Tuning.Parameter] {
        do {
            return try Tuning.parameters(for: engine)
        } catch {
            throw CommandFailure(.engineFailed, "error: engine \(engine.name): \(error.message)")
        }
    }

    static func sweeps(_ texts: [String], parameters: [Tuning.Parameter] = Tuning.parameters, command: String)
        throws(UsageError) -> [Tuning.Sweep]
    {
        var sweeps: [Tuning.Sweep] = []
        for text in texts {
            switch Tuning.Sweep.parse(text, parameters: parameters) {
            case .success(let sweep):
                // Crossing a setting with itself would run combinations in which the later value
                // silently overrides the earlier one.
                guard !sweeps.contains(where: { $0.parameter.name == sweep.parameter.name }) else {
                    throw UsageError("--sweep: '\(sweep.parameter.name)' is swept twice", command: command)
                }
                sweeps.append(sweep)
            case .failure(let error):
                throw UsageError("--sweep: " + VisibleText.escapingControls("\(error)"), command: command)
            }
        }
        return sweeps
    }

    static func objectives(_ texts: [String], hasTruth: Bool, command: String) throws(UsageError)
        -> [Tuning.Objective]
    {
        guard !texts.isEmpty else { return Tuning.Objective.defaults(hasTruth: hasTruth) }
        var objectives: [Tuning.Objective] = []
        for text in texts {
            switch Tuning.Objective.parse(text) {
            case .success(let objective):
                guard !objectives.contains(where: { $0.metric == objective.metric }) else {
                    throw UsageError("--objective: '\(objective.metric.rawValue)' is given twice", command: command)
                }
                try needsTruth(objective.metric, hasTruth, "--objective", command)
                objectives.append(objective)
            case .failure(let error):
                throw UsageError("--objective: " + VisibleText.escapingControls("\(error)"), command: command)
            }
        }
        return objectives
    }

    static func constraints(_ texts: [String], hasTruth: Bool, command: String) throws(UsageError)
        -> [Tuning.Constraint]
    {
        var constraints: [Tuning.Constraint] = []
        for text in texts {
            switch Tuning.Constraint.parse(text) {
            case .success(let constraint):
                try needsTruth(constraint.metric, hasTruth, "--require", command)
                constraints.append(constraint)
            case .failure(let error):
                throw UsageError("--require: " + VisibleText.escapingControls("\(error)"), command: command)
            }
        }
        return constraints
    }

    private static func needsTruth(_ metric: Tuning.Metric, _ hasTruth: Bool, _ option: String, _ command: String)
        throws(UsageError)
    {
        guard metric.needsTruth, !hasTruth else { return }
        throw UsageError(
            "\(option): \(metric.rawValue) is measured against a ground truth: add --truth TRACE, "
                + "or --noise to use the clean trace", command: command)
    }

}
