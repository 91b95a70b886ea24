import Scenarios

/// The built-in scenarios: what each simulates, on which OS profile, with which person, and the
/// fact-sheet rows it rests on.
public enum ScenariosReport {
    /// A line per scenario: name, OS profile, person, summary, `[fact rows]`.
    /// - Parameter scenarios: the scenarios, in the order listed.
    /// - Returns: the table, one line per scenario.
    public static func text(_ scenarios: [Scenario]) -> String {
        TextTable(
            scenarios.map {
                [
                    $0.name, $0.device.parameters.osProfile.rawValue, person($0),
                    $0.summary + "  [" + $0.factRows.joined(separator: "; ") + "]",
                ]
            },
            alignments: [.left, .left, .left, .unpadded]
        ).rendered
    }

    /// One JSON array of `{"name", "osProfile", "person", "expectedAuthorization", "summary",
    /// "factRows"}`; `expectedAuthorization` is `null` for a scenario that promises none.
    /// - Parameter scenarios: the scenarios, in the order listed.
    /// - Returns: the array.
    public static func json(_ scenarios: [Scenario]) -> String {
        JSONText.array(
            scenarios.map { scenario in
                .object([
                    ("name", .string(scenario.name)),
                    ("osProfile", .string(scenario.device.parameters.osProfile.rawValue)),
                    ("person", .string(person(scenario))),
                    ("expectedAuthorization", scenario.expectedAuthorization.map { .string($0.name) } ?? .null),
                    ("summary", .string(scenario.summary)),
                    ("factRows", .array(scenario.factRows.map { .string($0) })),
                ])
            }
        ).rendered
    }

    /// The person's name; `scripted` for a person read from a file.
    private static func person(_ scenario: Scenario) -> String { scenario.user.name ?? "scripted" }
}
