import Engine

extension Comparison {
    /// The ideal run a scenario's run is measured against, as a value: the `ideal` preset on the
    /// scenario's seed, with the scenario's engine settings less `preventSuspend` and the
    /// heartbeat. Those two are what a scenario pays for in GPS time to keep the app from being
    /// suspended, so the reference must not pay for them too; every other setting is kept, so
    /// a custom engine's or a tuned engine's reference is that engine's.
    ///
    /// Scenarios whose references are equal, replayed over the same trace and geofences, share
    /// one ideal run (`Matrix` replays it once).
    public struct Reference: Sendable, Equatable {
        /// Seeds the ideal run's phone: the scenario's seed.
        public var seed: UInt64
        /// The ideal run's engine settings.
        public var engine: EngineConfiguration
        /// The accuracy the ideal phone reports for fixes the trace gives none: the scenario's,
        /// since it describes the trace's source rather than the phone (issue 30).
        public var assumedHorizontalAccuracyMeters: Double

        /// The reference of `scenario`, with the seed it runs on.
        public init(of scenario: Scenario) {
            let defaults = EngineConfiguration()
            var engine = scenario.engine
            engine.preventSuspend = defaults.preventSuspend
            engine.heartbeatIntervalSeconds = defaults.heartbeatIntervalSeconds
            self.seed = scenario.seed
            self.engine = engine
            assumedHorizontalAccuracyMeters = scenario.device.parameters.assumedHorizontalAccuracyMeters
        }

        /// The scenario the ideal run replays.
        public var scenario: Scenario {
            guard var ideal = Scenario.preset(named: "ideal") else {
                preconditionFailure("the presets have lost the ideal reference")
            }
            ideal.seed = seed
            ideal.engine = engine
            ideal.device.parameters.assumedHorizontalAccuracyMeters = assumedHorizontalAccuracyMeters
            return ideal
        }

        /// Whether the engine settings are the default ones, so tables call this reference plain
        /// `ideal`.
        public var hasDefaultEngine: Bool { engine == EngineConfiguration() }

        /// The name of the ideal run's row in the tables: `ideal`, or `ideal for SCENARIO` after
        /// the first scenario compared with it when its engine settings are not the default ones.
        public func rowName(firstComparedWith scenario: String) -> String {
            hasDefaultEngine ? "ideal" : "ideal for \(scenario)"
        }
    }
}
