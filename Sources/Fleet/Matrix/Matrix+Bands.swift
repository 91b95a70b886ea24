import Device
import Scenarios

/// A matrix rerun across the disputed bands (`matrix --bands`): every scenario at its own
/// parameters, then at each band's two ends one band at a time (the others at the scenario's
/// own values), then at the all-pessimistic and all-optimistic corners.
///
/// The variants are scenarios of an expanded `Matrix`, so they stream, share their ideal run
/// and stay deterministic exactly as plain scenarios do: a band end changes only the device's
/// parameters, never the ideal run's reference. A variant whose parameters equal the scenario's
/// own (an end that is the default) is not run again: its slot points at the scenario's run.
public struct BandedMatrix: Sendable {
    /// What a variant sets: nothing (the scenario as given), one band's end, or every band's end.
    public enum Variant: Sendable, Equatable {
        /// The scenario as given: the default of every band.
        case asGiven
        /// One band (its index in `bands`) at one end, the others as given.
        case band(Int, DisputedBand.End)
        /// Every band at this end.
        case corner(DisputedBand.End)
    }

    /// The bands rerun, in the catalogue's order.
    public var bands: [DisputedBand]
    /// The variants every scenario runs in, `asGiven` first, then each band's pessimistic and
    /// optimistic ends, then the two corners.
    public var variants: [Variant]
    /// The names of the scenarios as given, in order.
    public var scenarioNames: [String]
    /// For each scenario as given and each variant, the index of the expanded matrix's scenario
    /// whose runs it reads.
    public var slots: [[Int]]
    /// The matrix that runs every distinct variant: the scenarios as given are among its
    /// scenarios, each followed by its variants.
    public var matrix: Matrix

    /// Expands `matrix` across `bands`.
    /// - Throws: `BandError` when a band end cannot be set on a scenario's parameters (out of
    ///   range, or inconsistent with what the scenario set beside it).
    public init(_ matrix: Matrix, bands: [DisputedBand] = DisputedBand.catalogue) throws(BandError) {
        self.bands = bands
        variants =
            [.asGiven] + bands.indices.flatMap { index in DisputedBand.End.allCases.map { Variant.band(index, $0) } }
            + DisputedBand.End.allCases.map { Variant.corner($0) }
        scenarioNames = matrix.scenarios.map(\.scenario.name)
        var expanded = matrix
        expanded.scenarios = []
        slots = []
        for entry in matrix.scenarios {
            let own = entry.scenario.device.parameters
            var distinct: [(parameters: DeviceParameters, index: Int)] = []
            var row: [Int] = []
            for variant in variants {
                var parameters = own
                do throws(DeviceParameterError) {
                    switch variant {
                    case .asGiven: break
                    case .band(let index, let end): try bands[index].apply(end, to: &parameters)
                    case .corner(let end): try DisputedBand.applyCorner(end, of: bands, to: &parameters)
                    }
                } catch {
                    throw BandError(scenario: entry.scenario.name, variant: Self.label(variant, bands: bands), error)
                }
                if let same = distinct.first(where: { $0.parameters == parameters }) {
                    row.append(same.index)
                    continue
                }
                var changed = entry
                changed.scenario.device.parameters = parameters
                expanded.scenarios.append(changed)
                distinct.append((parameters, expanded.scenarios.count - 1))
                row.append(expanded.scenarios.count - 1)
            }
            slots.append(row)
        }
        self.matrix = expanded
    }

    /// The variant's name in reports: `default`, `BAND pessimistic`, `all pessimistic`.
    public static func label(_ variant: Variant, bands: [DisputedBand]) -> String {
        switch variant {
        case .asGiven: "default"
        case .band(let index, let end): "\(bands[index].name) \(end.rawValue)"
        case .corner(let end): "all \(end.rawValue)"
        }
    }

    /// The expanded matrix's scenario names, for a table filled from its runs.
    public var expandedScenarioNames: [String] { matrix.scenarios.map(\.scenario.name) }
}

/// A band end that cannot be set on a scenario: the scenario, the variant and the parameter's
/// complaint.
public struct BandError: Error, Sendable, Equatable {
    /// The scenario's name.
    public var scenario: String
    /// The variant (`regionLatency pessimistic`, `all optimistic`).
    public var variant: String
    /// What the parameter refused.
    public var error: DeviceParameterError

    /// The refusal of `variant` on `scenario`.
    public init(scenario: String, variant: String, _ error: DeviceParameterError) {
        self.scenario = scenario
        self.variant = variant
        self.error = error
    }

    /// The message: scenario, variant, then the parameter and why.
    public var message: String {
        "scenario '\(scenario)', band \(variant): \(error.name) \(error.reason)"
    }
}
