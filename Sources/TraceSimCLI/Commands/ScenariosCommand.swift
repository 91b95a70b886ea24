import Reports
import Scenarios

/// `tracesim scenarios`: the built-in presets, what each simulates and its sources.
enum ScenariosCommand: Command {
    static let declaration = CommandDeclaration(
        name: "scenarios",
        overview: """
            List the built-in scenarios: one per permission level, each with what it
            simulates and the fact-sheet rows it rests on.
            """,
        options: [
            .choice(
                "format", ["text", "json"],
                help: #"text (default) or one JSON array of {"name", "osProfile", "summary", "factRows"}."#)
        ])

    static func run(_ parsed: ParsedArguments, console: Console) throws -> ExitCode {
        guard parsed.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(parsed.positionals[0])'", command: name)
        }
        switch try parsed.choice("format") {
        case "text": console.print(ScenariosReport.text(Scenario.presets))
        case "json": console.print(ScenariosReport.json(Scenario.presets))
        default: break  // `choice` accepts only the declared formats
        }
        return .success
    }
}
