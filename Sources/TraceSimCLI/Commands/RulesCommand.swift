import Device
import Foundation
import Reports

/// `tracesim rules [--format text|json|markdown]`: every device rule and parameter, printed
/// from the code that applies them (`DeviceRule`, `DeviceParameters`), never a hand-kept copy.
enum RulesCommand: ReportingCommand {
    /// The formats `--format` takes.
    static let formats = ReportFormat.Option(
        [.text, .json, .markdown],
        help: """
            text (default); json (one object with "rules" and "parameters");
            markdown (two tables, for documentation).
            """)

    static let declaration = CommandDeclaration(
        name: "rules",
        overview: """
            List every iOS rule the simulated device applies, with the API it models and its
            source, and every parameter with its default, unit and source.
            """,
        options: [
            formats.declared
        ],
        discussion: """
            Evidence labels: A Apple documentation, A-arch Apple's archived guide, A-WWDC a WWDC
            session, SDK a third-party SDK, OBS an observation, SIM a simulator default, PRODUCT a
            product decision. Everything weaker than Apple documentation is a parameter.
            """)

    static func run(_ parsed: ParsedArguments, console: Console) throws -> ExitCode {
        guard parsed.positionals.isEmpty else {
            throw UsageError("rules takes no arguments, got '\(parsed.positionals[0])'", command: name)
        }
        let parameters = DeviceParameters().catalogue
        switch try formats.parse(parsed) {
        case .text: console.print(RulesReport.text(parameters))
        case .json: console.print(RulesReport.json(parameters))
        case .markdown: console.print(RulesReport.markdown(parameters))
        default: break  // `formats.parse` returns only the declared formats
        }
        return .success
    }
}
