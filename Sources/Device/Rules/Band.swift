/// A parameter or rule whose sources disagree, with the value each side of the disagreement
/// gives it: a pessimistic end (less collection), the default (whatever `DeviceParameters()`
/// holds) and an optimistic end, each end with its source and how strong that source is.
///
/// `tracesim rules` lists the bands (`DisputedBand.catalogue`) and `tracesim matrix --bands`
/// reruns every scenario at each end, one band at a time, so a verdict that rests on a disputed
/// behaviour prints as a range rather than one number.
public struct DisputedBand: Sendable {
    /// Which end of a band.
    public enum End: String, Sendable, CaseIterable {
        /// The end that collects less: the more pessimistic reading of the sources.
        case pessimistic
        /// The end that collects more.
        case optimistic
    }

    /// One parameter set to one value, by its name in `DeviceParameters.descriptors`.
    public struct Setting: Sendable, Equatable {
        /// The parameter's name (`DeviceParameterDescriptor.name`).
        public var parameter: String
        /// The value the end gives it.
        public var value: DeviceParameterDescriptor.Value

        /// `parameter` set to `value`.
        public init(_ parameter: String, _ value: DeviceParameterDescriptor.Value) {
            self.parameter = parameter
            self.value = value
        }
    }

    /// One end of a band: the parameters it sets and what that reading rests on.
    public struct Bound: Sendable {
        /// The parameters this end sets, applied in order.
        public var settings: [Setting]
        /// Who says so: a document, an issue thread, a field measurement.
        public var source: String
        /// How strong that source is.
        public var evidence: Evidence

        /// An end setting `settings`, resting on `source`.
        public init(_ settings: [Setting], source: String, _ evidence: Evidence) {
            self.settings = settings
            self.source = source
            self.evidence = evidence
        }
    }

    /// The band's name in `tracesim rules` and in `matrix --sensitivity`.
    public var name: String
    /// What is disputed, in a line.
    public var summary: String
    /// The end that collects less.
    public var pessimistic: Bound
    /// The end that collects more.
    public var optimistic: Bound

    /// A band between `pessimistic` and `optimistic`; its default is `DeviceParameters()`'s.
    public init(_ name: String, _ summary: String, pessimistic: Bound, optimistic: Bound) {
        self.name = name
        self.summary = summary
        self.pessimistic = pessimistic
        self.optimistic = optimistic
    }

    /// The bound at `end`.
    public func bound(_ end: End) -> Bound {
        switch end {
        case .pessimistic: pessimistic
        case .optimistic: optimistic
        }
    }

    /// Every parameter either end sets, each once, in the order the ends name them.
    public var parameters: [String] {
        var names: [String] = []
        for setting in pessimistic.settings + optimistic.settings where !names.contains(setting.parameter) {
            names.append(setting.parameter)
        }
        return names
    }

    /// The band's parameters as `parameters` holds them: the default end when `parameters` is
    /// `DeviceParameters()`. A name with no descriptor is left out (the catalogue test refuses it).
    public func values(in parameters: DeviceParameters) -> [Setting] {
        self.parameters.compactMap { name in
            DeviceParameters.descriptor(named: name).map { Setting(name, $0.value(in: parameters)) }
        }
    }

    /// Sets this band's `end` in `parameters`, over whatever a scenario set there: the band
    /// asks what a row reads if the disputed behaviour is the other way, whatever the preset
    /// assumed. Every value goes through `DeviceParameterDescriptor.set`, so ranges are checked.
    /// - Throws: `DeviceParameterError` for a name with no parameter, a value out of range, or a
    ///   pair the end leaves inconsistent (`DeviceParameters.inconsistency`).
    public func apply(_ end: End, to parameters: inout DeviceParameters) throws(DeviceParameterError) {
        for setting in bound(end).settings {
            guard let descriptor = DeviceParameters.descriptor(named: setting.parameter) else {
                throw DeviceParameterError(name: setting.parameter, reason: "is not a device parameter")
            }
            try descriptor.set(setting.value, in: &parameters)
        }
        if let inconsistency = parameters.inconsistency {
            throw DeviceParameterError(name: inconsistency.name, reason: inconsistency.reason)
        }
    }

    /// Sets `end` of every band in `bands`, in order: a corner of the band space (all
    /// pessimistic, or all optimistic).
    /// - Throws: `DeviceParameterError` as `apply(_:to:)`.
    public static func applyCorner(
        _ end: End, of bands: [DisputedBand], to parameters: inout DeviceParameters
    ) throws(DeviceParameterError) {
        for band in bands { try band.apply(end, to: &parameters) }
    }
}
