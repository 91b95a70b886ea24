import ConfigJSON
import Device
import Scenarios

/// The mark on a run whose final location status is not the one its scenario promises (by its
/// name for a preset, by `expectedAuthorization` for a file)
/// (`ScenarioRun.authorizationDrift`). Text and HTML carry it as TraceSim's note on the run
/// (`wheninuse-locked → authorizedAlways, not the authorizedWhenInUse the scenario promises`, from
/// when it was reached), and a matrix counts the runs under its table; JSON also carries it as
/// a field of the run, for a program to read without parsing a sentence. Runs without a drift
/// carry no trace of this, so earlier outputs keep their bytes.
enum AuthorizationMarkReport {
    /// `"authorizationDrift": {"expected", "final", "t"}` for a run's JSON, `t` in seconds from
    /// the trace's first fix; nothing without a drift.
    static func jsonMember(_ run: ScenarioRun) -> [(String, JSONText)] {
        guard let drift = run.authorizationDrift else { return [] }
        return [
            (
                "authorizationDrift",
                .object([
                    ("expected", .string(drift.expected.name)), ("final", .string(drift.final.name)),
                    ("t", .number(Formatting.rounded(drift.time.seconds(since: run.traceStart), 3))),
                ])
            )
        ]
    }

    /// Checks a saved run's `authorizationDrift` (absent, or the object `jsonMember` writes);
    /// the tables read the drift from the run's notes, so nothing else is kept.
    /// - Throws: `ConfigError` naming the member that is wrong.
    static func check(_ node: JSONNode?, _ reader: ConfigReader) throws(ConfigError) {
        guard let node else { return }
        let path = "$.authorizationDrift"
        let members = try reader.object(node, path, allowed: ["expected", "final", "t"])
        let statuses = AuthorizationStatus.allCases.map { ($0.name, $0) }
        for key in ["expected", "final"] {
            _ = try reader.token(try reader.required(members, key, in: node, path), "\(path).\(key)", statuses)
        }
        _ = try reader.number(
            try reader.required(members, "t", in: node, path), "\(path).t",
            in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
    }
}
