import Device
import Foundation

/// The device's rules and parameters, printed from the code that applies them (`DeviceRule`,
/// `DeviceParameters`), never a hand-kept copy.
public enum RulesReport {
    /// One object with `"schemaVersion"`, `"rules"`, `"profiles"`, `"parameters"` (defaults
    /// typed) and `"bands"` (added in schema 1 additively: readers of the other keys are unchanged).
    public static func json(_ parameters: [DeviceParameterInfo]) -> String {
        JSONText.object([
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
                            ("profiles", .array(info.profiles.map { .string($0.rawValue) })),
                        ])
                    })
            ),
            (
                "profiles",
                .array(
                    OSBehaviourProfile.allCases.map { profile in
                        .object([
                            ("name", .string(profile.rawValue)),
                            ("current", .bool(profile == .current)),
                            ("summary", .string(profile.summary)),
                            ("rules", .array(rulesOnlyOn(profile).map { .string($0.rawValue) })),
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
                            ("values", .string(parameter.values)),
                            ("summary", .string(parameter.summary)),
                            ("source", .string(parameter.source)),
                            ("evidence", .string(parameter.evidence.rawValue)),
                        ])
                    })
            ),
            ("bands", bandsJSON),
        ]).rendered
    }

    /// The rules that hold on `profile` but not on every profile: what marks it out.
    private static func rulesOnlyOn(_ profile: OSBehaviourProfile) -> [DeviceRule] {
        DeviceRule.allCases.filter { !$0.info.appliesToEveryProfile && $0.info.profiles.contains(profile) }
    }

    private static func rulesOnlyOnText(_ profile: OSBehaviourProfile) -> String {
        rulesOnlyOn(profile).map(\.rawValue).joined(separator: ", ")
    }

    /// Numbers and booleans as JSON numbers and booleans, names as strings.
    private static func typed(_ value: String) -> JSONText {
        if value == "true" || value == "false" { return .bool(value == "true") }
        if let number = Double(value) { return .number(number) }
        return .string(value)
    }

    /// Every rule with its evidence, source and parameters, then every parameter's default and
    /// what it controls, for a terminal.
    public static func text(_ parameters: [DeviceParameterInfo]) -> String {
        var lines = ["RULES (\(DeviceRule.allCases.count))", ""]
        for rule in DeviceRule.allCases {
            let info = rule.info
            lines.append("\(rule.rawValue)  [\(info.evidence.rawValue); \(info.source)]")
            lines.append("  \(info.summary)")
            lines.append("  models: \(info.models)")
            if !info.parameters.isEmpty { lines.append("  parameters: \(info.parameters.joined(separator: ", "))") }
            if !info.appliesToEveryProfile { lines.append("  profiles: \(profileList(info.profiles))") }
            lines.append("")
        }
        lines.append(
            "OS PROFILES (\(OSBehaviourProfile.allCases.count); current = \(OSBehaviourProfile.current.rawValue))")
        lines.append("")
        lines.append(
            TextTable(
                OSBehaviourProfile.allCases.flatMap { profile in
                    let rules = rulesOnlyOnText(profile)
                    return [[profile.rawValue, profile.summary]] + (rules.isEmpty ? [] : [["", "rules: \(rules)"]])
                },
                alignments: [.left, .unpadded]
            ).rendered)
        lines.append("")
        lines.append("PARAMETERS (\(parameters.count))")
        lines.append("")
        let rows = parameters.flatMap { parameter in
            [
                [parameter.name, parameter.unit.isEmpty ? parameter.value : "\(parameter.value) \(parameter.unit)"],
                ["", "\(parameter.summary) [\(parameter.evidence.rawValue); \(parameter.source)]"],
            ]
        }
        if !rows.isEmpty { lines.append(TextTable(rows, alignments: [.left, .unpadded]).rendered) }
        lines += [""] + bandsText
        return lines.joined(separator: "\n")
    }

    private static func profileList(_ profiles: [OSBehaviourProfile]) -> String {
        profiles.count == OSBehaviourProfile.allCases.count ? "all" : profiles.map(\.rawValue).joined(separator: ", ")
    }

    /// Three Markdown tables, rules, OS profiles and parameters, for documentation.
    public static func markdown(_ parameters: [DeviceParameterInfo]) -> String {
        func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
        var lines = [
            "## Device rules", "", "| Rule | What the device does | Models | Source | Evidence | Profiles |",
            "|---|---|---|---|---|---|",
        ]
        for rule in DeviceRule.allCases {
            let info = rule.info
            lines.append(
                "| `\(rule.rawValue)` | \(cell(info.summary)) | \(cell(info.models)) | \(cell(info.source)) | \(info.evidence.rawValue) | \(profileList(info.profiles)) |"
            )
        }
        lines += ["", "## OS profiles", "", "`current` is \(OSBehaviourProfile.current.rawValue).", ""]
        lines += ["| Profile | What changed | Rules only on some profiles |", "|---|---|---|"]
        lines += OSBehaviourProfile.allCases.map { profile in
            let rules = rulesOnlyOn(profile).map { "`\($0.rawValue)`" }.joined(separator: ", ")
            return "| `\(profile.rawValue)` | \(cell(profile.summary)) | \(rules) |"
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
        lines += bandsMarkdown
        return lines.joined(separator: "\n")
    }
}
