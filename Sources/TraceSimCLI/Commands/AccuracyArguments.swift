import Device

/// `--assume-accuracy METERS`: the horizontal accuracy the simulated phone reports for fixes
/// whose source recorded none (device parameter `assumedHorizontalAccuracyMeters`), for the
/// single-run commands. A matrix, `check` and `tune` take it from a scenario file's
/// `device.parameters`, which a run's identity fingerprints, so shards made with different
/// assumptions never merge.
enum AccuracyArguments {
    /// The option as `replay` and `track` declare it.
    static let declared = CommandDeclaration.Option(
        name: "assume-accuracy", value: "<METERS>",
        help: """
            The horizontal accuracy, in metres (1 to 100000), the phone reports for
            fixes whose file records none (TCX, KML, dashcam logs); default 10, an
            assumption (see 'tracesim rules': assumedHorizontalAccuracyMeters).
            """)

    /// The smallest value accepted: the device parameter's own bound (a receiver never reports 0 m).
    static let minimumMeters = 1.0
    /// The largest value accepted: the device parameter's own bound.
    static let maximumMeters = 100_000.0

    /// `--assume-accuracy`, or `nil` to keep the phone's own parameter.
    /// - Throws: `UsageError` (64) for a value that is not a number of metres in range.
    static func meters(_ parsed: ParsedArguments, command: String) throws(UsageError) -> Double? {
        guard let text = parsed.value("assume-accuracy") else { return nil }
        return try NumberArgument.decimal(
            text, option: "--assume-accuracy", unit: "of metres",
            range: "from \(Int(minimumMeters)) to \(Int(maximumMeters))", command: command
        ) { $0 >= minimumMeters && $0 <= maximumMeters }
    }

    /// Sets the assumed accuracy on `parameters` when the option was given.
    static func apply(_ meters: Double?, to parameters: inout DeviceParameters) {
        if let meters { parameters.assumedHorizontalAccuracyMeters = meters }
    }
}
