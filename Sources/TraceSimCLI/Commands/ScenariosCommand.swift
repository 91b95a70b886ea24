import Reports
import Scenarios

/// `tracesim scenarios`: the built-in presets, what each simulates and its sources.
enum ScenariosCommand: ReportingCommand {
    /// The formats `--format` takes.
    static let formats = ReportFormat.Option(
        [.text, .json], help: #"text (default) or one JSON array of {"name", "osProfile", "summary", "factRows"}."#)

    static let declaration = CommandDeclaration(
        name: "scenarios",
        overview: """
            List the built-in scenarios: one per permission level, each with what it
            simulates and the fact-sheet rows it rests on.
            """,
        options: [
            formats.declared
        ])

    static func run(_ parsed: ParsedArguments, console: Console) throws -> ExitCode {
        guard parsed.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(parsed.positionals[0])'", command: name)
        }
        switch try formats.parse(parsed) {
        case .text: console.print(ScenariosReport.text(Scenario.presets))
        case .json: console.print(ScenariosReport.json(Scenario.presets))
        default: break  // `formats.parse` returns only the declared formats
        }
        return .success
    }
}
