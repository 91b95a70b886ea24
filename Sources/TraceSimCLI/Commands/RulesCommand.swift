import Device
import Foundation
import Reports

/// `tracesim rules [--format text|json|markdown]`: every device rule and parameter, printed
/// from the code that applies them (`DeviceRule`, `DeviceParameters`), never a hand-kept copy.
enum RulesCommand {
    static let name = "rules"

    static let help = """
        OVERVIEW: List every iOS rule the simulated device applies, with the API it models and its
        source, and every parameter with its default, unit and source.

        USAGE: tracesim rules [--format text|json|markdown]

        OPTIONS:
          --format <text|json|markdown>
                                  text (default); json (one object with "rules" and "parameters");
                                  markdown (two tables, for documentation).
          -h, --help              Show this help.

        Evidence labels: A Apple documentation, A-arch Apple's archived guide, A-WWDC a WWDC
        session, SDK a third-party SDK, OBS an observation, SIM a simulator default, PRODUCT a
        product decision. Everything weaker than Apple documentation is a parameter.
        """

    static func run(_ arguments: [String], console: Console) throws(UsageError) -> ExitCode {
        let parsed = try ArgumentSpec(valued: ["format"]).parse(arguments, command: name)
        if parsed.flag("help") {
            console.print(help)
            return .success
        }
        guard parsed.positionals.isEmpty else {
            throw UsageError("rules takes no arguments, got '\(parsed.positionals[0])'", command: name)
        }
        let parameters = DeviceParameters().catalogue
        switch parsed.value("format") ?? "text" {
        case "text": console.print(RulesReport.text(parameters))
        case "json": console.print(RulesReport.json(parameters))
        case "markdown": console.print(RulesReport.markdown(parameters))
        case let other: throw UsageError("--format must be text, json or markdown, not '\(other)'", command: name)
        }
        return .success
    }
}
