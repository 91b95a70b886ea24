import Scenarios

/// The built-in scenarios: what each simulates, on which OS profile, and the fact-sheet rows it
/// rests on.
public enum ScenariosReport {
    /// A line per scenario: name, OS profile, summary, `[fact rows]`.
    public static func text(_ scenarios: [Scenario]) -> String {
        TextTable(
            scenarios.map {
                [
                    $0.name, $0.device.parameters.osProfile.rawValue,
                    $0.summary + "  [" + $0.factRows.joined(separator: "; ") + "]",
                ]
            },
            alignments: [.left, .left, .unpadded]
        ).rendered
    }

    /// One JSON array of `{"name", "osProfile", "summary", "factRows"}`.
    public static func json(_ scenarios: [Scenario]) -> String {
        JSONText.array(
            scenarios.map { scenario in
                .object([
                    ("name", .string(scenario.name)),
                    ("osProfile", .string(scenario.device.parameters.osProfile.rawValue)),
                    ("summary", .string(scenario.summary)),
                    ("factRows", .array(scenario.factRows.map { .string($0) })),
                ])
            }
        ).rendered
    }
}
