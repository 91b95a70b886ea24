import Device

/// The disputed bands in `tracesim rules`: each band's pessimistic end, default and optimistic
/// end, with the source and evidence label of each.
extension RulesReport {
    /// `"bands"` of the rules JSON: an array of `{"name", "summary", "pessimistic", "default",
    /// "optimistic"}`, each end `{"settings": [{"parameter", "value"}], "source", "evidence"}`; the
    /// default's source and evidence are its parameters' own.
    static var bandsJSON: JSONText {
        .array(
            DisputedBand.catalogue.map { band in
                .object([
                    ("name", .string(band.name)), ("summary", .string(band.summary)),
                    ("pessimistic", json(band.pessimistic)), ("default", json(band.values(in: DeviceParameters()))),
                    ("optimistic", json(band.optimistic)),
                ])
            })
    }

    /// One end as the JSON writes it.
    static func json(_ bound: DisputedBand.Bound) -> JSONText {
        .object([
            ("settings", settingsJSON(bound.settings)), ("source", .string(bound.source)),
            ("evidence", .string(bound.evidence.rawValue)),
        ])
    }

    /// The default end: the parameters' values, with their own sources and evidence.
    static func json(_ defaults: [DisputedBand.Setting]) -> JSONText {
        let sources = defaults.compactMap { DeviceParameters.descriptor(named: $0.parameter) }
        return .object([
            ("settings", settingsJSON(defaults)), ("source", .string(defaultSource(defaults))),
            ("evidence", .string(sources.first?.evidence.rawValue ?? Evidence.simulator.rawValue)),
        ])
    }

    private static func settingsJSON(_ settings: [DisputedBand.Setting]) -> JSONText {
        .array(settings.map { .object([("parameter", .string($0.parameter)), ("value", typedValue($0.value))]) })
    }

    /// A value typed as JSON: numbers, booleans, and `"profile"` for a flag left to the OS profile.
    static func typedValue(_ value: DeviceParameterDescriptor.Value) -> JSONText {
        switch value {
        case .number(let number): .number(number)
        case .integer(let integer): .integer(integer)
        case .flag(let flag): .bool(flag)
        case .optionalFlag(let flag): flag.map(JSONText.bool) ?? .string(DeviceParameterDescriptor.Value.followsProfile)
        case .profile(let profile): .string(profile.rawValue)
        }
    }

    /// The default's sources: each parameter's own, once each.
    private static func defaultSource(_ defaults: [DisputedBand.Setting]) -> String {
        var sources: [String] = []
        for setting in defaults {
            guard let source = DeviceParameters.descriptor(named: setting.parameter)?.source,
                !sources.contains(source)
            else { continue }
            sources.append(source)
        }
        return sources.joined(separator: "; ")
    }

    /// An end's values as text: `whenInUseLockCutoffSeconds 13`, joined by commas.
    private static func settingsText(_ settings: [DisputedBand.Setting]) -> String {
        settings.map { "\($0.parameter) \($0.value.text)" }.joined(separator: ", ")
    }

    /// The bands for a terminal: each band, then a line per end with its values, evidence and source.
    static var bandsText: [String] {
        var lines = [
            "BANDS (\(DisputedBand.catalogue.count); where sources disagree, 'matrix --bands' reruns both ends)", "",
        ]
        for band in DisputedBand.catalogue {
            let defaults = band.values(in: DeviceParameters())
            let evidence = defaults.compactMap { DeviceParameters.descriptor(named: $0.parameter)?.evidence }.first
            lines.append("\(band.name)  \(band.summary)")
            lines.append(
                TextTable(
                    [
                        [
                            "  pessimistic", settingsText(band.pessimistic.settings),
                            "[\(band.pessimistic.evidence.rawValue); \(band.pessimistic.source)]",
                        ],
                        [
                            "  default", settingsText(defaults),
                            "[\(evidence?.rawValue ?? Evidence.simulator.rawValue); \(defaultSource(defaults))]",
                        ],
                        [
                            "  optimistic", settingsText(band.optimistic.settings),
                            "[\(band.optimistic.evidence.rawValue); \(band.optimistic.source)]",
                        ],
                    ], alignments: [.left, .left, .unpadded]
                ).rendered)
            lines.append("")
        }
        return lines
    }

    /// The bands as a Markdown table, for the rules article.
    static var bandsMarkdown: [String] {
        func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
        func end(_ settings: [DisputedBand.Setting], _ evidence: String, _ source: String) -> String {
            "\(cell(settingsText(settings))) (\(evidence); \(cell(source)))"
        }
        var lines = [
            "", "## Disputed bands", "",
            "Where sources disagree, `matrix --bands` reruns every scenario at each end.", "",
            "| Band | What is disputed | Pessimistic | Default | Optimistic |", "|---|---|---|---|---|",
        ]
        for band in DisputedBand.catalogue {
            let defaults = band.values(in: DeviceParameters())
            let evidence =
                defaults.compactMap { DeviceParameters.descriptor(named: $0.parameter)?.evidence }.first?.rawValue
                ?? Evidence.simulator.rawValue
            lines.append(
                "| `\(band.name)` | \(cell(band.summary)) | "
                    + end(band.pessimistic.settings, band.pessimistic.evidence.rawValue, band.pessimistic.source)
                    + " | " + end(defaults, evidence, defaultSource(defaults)) + " | "
                    + end(band.optimistic.settings, band.optimistic.evidence.rawValue, band.optimistic.source) + " |")
        }
        return lines
    }
}
