import Scenarios

/// The built-in scenarios: what each simulates and the fact-sheet rows it rests on.
public enum ScenariosReport {
    /// A line per scenario: name, summary, `[fact rows]`.
    public static func text(_ scenarios: [Scenario]) -> String {
        TextTable(
            scenarios.map { [$0.name, $0.summary + "  [" + $0.factRows.joined(separator: "; ") + "]"] },
            alignments: [.left, .unpadded]
        ).rendered
    }

    /// One JSON array of `{"name", "summary", "factRows"}`.
    public static func json(_ scenarios: [Scenario]) -> String {
        JSONText.array(
            scenarios.map { scenario in
                .object([
                    ("name", .string(scenario.name)), ("summary", .string(scenario.summary)),
                    ("factRows", .array(scenario.factRows.map { .string($0) })),
                ])
            }
        ).rendered
    }
}
