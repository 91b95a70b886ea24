import Device
import Foundation

/// `tracesim rules [--format text|json|markdown]`: every device rule and parameter, printed
/// from the code that applies them (`DeviceRule`, `DeviceParameters`), never a hand-kept copy.
enum RulesCommand: Command {
    static let declaration = CommandDeclaration(
        name: "rules",
        overview: """
            List every iOS rule the simulated device applies, with the API it models and its
            source, and every parameter with its default, unit and source.
            """,
        options: [
            .choice(
                "format", ["text", "json", "markdown"],
                help: """
                    text (default); json (one object with "rules" and "parameters");
                    markdown (two tables, for documentation).
                    """)
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
        switch try parsed.choice("format") {
        case "text": console.print(text(parameters))
        case "json": console.print(json(parameters).rendered)
        case "markdown": console.print(markdown(parameters))
        default: break  // `choice` accepts only the declared formats
        }
        return .success
    }

    static func json(_ parameters: [DeviceParameterInfo]) -> JSONText {
        .object([
            ("schemaVersion", .integer(1)),
            (
                "rules",
                .array(
                    DeviceRule.allCases.map { rule in
                        let info = rule.info
                        return .object([
                            ("name", .string(rule.rawValue)),
                            ("summary", .string(info.summary)),
                            ("models", .string(info.models)),
                            ("source", .string(info.source)),
                            ("evidence", .string(info.evidence.rawValue)),
                            ("parameters", .array(info.parameters.map { .string($0) })),
                        ])
                    })
            ),
            (
                "parameters",
                .array(
                    parameters.map { parameter in
                        .object([
                            ("name", .string(parameter.name)),
                            ("default", typed(parameter.value)),
                            ("unit", .string(parameter.unit)),
                            ("summary", .string(parameter.summary)),
                            ("source", .string(parameter.source)),
                            ("evidence", .string(parameter.evidence.rawValue)),
                        ])
                    })
            ),
        ])
    }

    /// Numbers and booleans as JSON numbers and booleans, names as strings.
    private static func typed(_ value: String) -> JSONText {
        if value == "true" || value == "false" { return .bool(value == "true") }
        if let number = Double(value) { return .number(number) }
        return .string(value)
    }

    static func text(_ parameters: [DeviceParameterInfo]) -> String {
        var lines = ["RULES (\(DeviceRule.allCases.count))", ""]
        for rule in DeviceRule.allCases {
            let info = rule.info
            lines.append("\(rule.rawValue)  [\(info.evidence.rawValue); \(info.source)]")
            lines.append("  \(info.summary)")
            lines.append("  models: \(info.models)")
            if !info.parameters.isEmpty { lines.append("  parameters: \(info.parameters.joined(separator: ", "))") }
            lines.append("")
        }
        lines.append("PARAMETERS (\(parameters.count))")
        lines.append("")
        let width = parameters.map(\.name.count).max() ?? 0
        for parameter in parameters {
            let value = parameter.unit.isEmpty ? parameter.value : "\(parameter.value) \(parameter.unit)"
            lines.append("\(parameter.name.padding(to: width))  \(value)")
            lines.append(
                "\(String(repeating: " ", count: width))  \(parameter.summary) [\(parameter.evidence.rawValue); \(parameter.source)]"
            )
        }
        return lines.joined(separator: "\n")
    }

    static func markdown(_ parameters: [DeviceParameterInfo]) -> String {
        func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
        var lines = [
            "## Device rules", "", "| Rule | What the device does | Models | Source | Evidence |",
            "|---|---|---|---|---|",
        ]
        for rule in DeviceRule.allCases {
            let info = rule.info
            lines.append(
                "| `\(rule.rawValue)` | \(cell(info.summary)) | \(cell(info.models)) | \(cell(info.source)) | \(info.evidence.rawValue) |"
            )
        }
        lines += [
            "", "## Device parameters", "", "| Parameter | Default | Unit | What it controls | Source | Evidence |",
            "|---|---|---|---|---|---|",
        ]
        for parameter in parameters {
            lines.append(
                "| `\(parameter.name)` | \(parameter.value) | \(parameter.unit) | \(cell(parameter.summary)) | \(cell(parameter.source)) | \(parameter.evidence.rawValue) |"
            )
        }
        return lines.joined(separator: "\n")
    }
}
