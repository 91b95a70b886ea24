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
                help: #"text (default) or one JSON array of {"name", "summary", "factRows"}."#)
        ])

    static func run(_ parsed: ParsedArguments, console: Console) throws -> ExitCode {
        guard parsed.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(parsed.positionals[0])'", command: name)
        }
        switch try parsed.choice("format") {
        case "text":
            let width = Scenario.presets.map(\.name.count).max() ?? 0
            for scenario in Scenario.presets {
                let padding = String(repeating: " ", count: width - scenario.name.count + 2)
                console.print(
                    scenario.name + padding + scenario.summary + "  [" + scenario.factRows.joined(separator: "; ") + "]"
                )
            }
        case "json":
            let rows = Scenario.presets.map { scenario -> JSONText in
                .object([
                    ("name", .string(scenario.name)), ("summary", .string(scenario.summary)),
                    ("factRows", .array(scenario.factRows.map { .string($0) })),
                ])
            }
            console.print(JSONText.array(rows).rendered)
        default: break  // `choice` accepts only the declared formats
        }
        return .success
    }
}
