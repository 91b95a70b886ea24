import Reports
import Scenarios

/// `tracesim scenarios`: the built-in presets, what each simulates and its sources.
enum ScenariosCommand {
    static let name = "scenarios"

    static let help = """
        OVERVIEW: List the built-in scenarios: one per permission level, each with what it
        simulates and the fact-sheet rows it rests on.

        USAGE: tracesim scenarios [--format text|json]

        OPTIONS:
          --format <text|json>    text (default) or one JSON array of {"name", "summary", "factRows"}.
          -h, --help              Show this help.
        """

    static func run(_ arguments: [String], console: Console) throws(UsageError) -> ExitCode {
        let parsed = try ArgumentSpec(valued: ["format"]).parse(arguments, command: name)
        if parsed.flag("help") {
            console.print(help)
            return .success
        }
        guard parsed.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(parsed.positionals[0])'", command: name)
        }
        switch parsed.value("format") ?? "text" {
        case "text": console.print(ScenariosReport.text(Scenario.presets))
        case "json": console.print(ScenariosReport.json(Scenario.presets))
        case let other:
            throw UsageError("--format must be text or json, not '\(other)'", command: name)
        }
        return .success
    }
}
