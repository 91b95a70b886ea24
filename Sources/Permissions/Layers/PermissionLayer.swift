import Device
import SimulationCore

/// The four SDK permission layers, runnable side by side on the same person.
public enum PermissionLayer: String, CaseIterable, Sendable {
    /// The bucket requester (seed 000).
    case doorstep
    /// The background-geolocation facade (seed 001).
    case bggeo
    /// The Airship-style delegate (seed 003).
    case airship
    /// The permissions wizard (seed 004).
    case wizard

    /// How a layer is driven.
    public struct Options: Sendable {
        /// The bucket requester's whitelist.
        public var whitelist = DoorstepPermission.all
        /// The bucket requester's `onlyIfNotDetermined: false`.
        public var force = false
        /// The wizard's status-page choice.
        public var wizardStatusAction = PermissionsWizard.StatusAction.skip
        public var wizardConfiguration = PermissionsWizard.Configuration.defaultConfiguration(appName: "TraceSim")

        /// The defaults: every bucket, not forced, Skip on the status page.
        public init() {}
    }

    /// Where a run stops after the layer's call returned.
    public enum Ending: Sendable {
        /// Runs everything still queued, however late: the whole story of a permissions report.
        case drained
        /// Stops where tracking starts (`PermissionSession.settle()`), so that a replay goes
        /// on with the same phone and what is still queued.
        case settled
    }

    /// What one run produced.
    public struct Run: Sendable {
        public var layer: PermissionLayer
        /// The session after the layer's call returned and the rest of the script ran (or, for a
        /// settled run, what the flow still waited for).
        public var session: PermissionSession
        /// Seconds the layer's call took.
        public var secondsTaken: Double
        /// The bucket requester's result.
        public var doorstep: DoorstepPermissionRequestResult?
        /// The facade's status and provider state.
        public var bggeo:
            (status: BackgroundGeolocation.AuthorizationStatus, provider: BackgroundGeolocation.ProviderState)?
        /// The delegate's outcome.
        public var airship: AirshipLocationPermissionDelegate.Outcome?
        /// The wizard's launch result.
        public var wizard: PermissionsWizard.LaunchResult?
        /// Whether the device can collect location in the background now (Always, not provisional).
        public var isBackgroundCollectionPossible: Bool {
            let state = session.device.authorization.state
            return state.status == .authorizedAlways && !state.isProvisionalAlways
        }
        /// Always + Precise + Motion: what every layer is trying to reach. Provisional Always
        /// does not count: the app is told Always but the phone treats it as When-In-Use until
        /// the deferred upgrade prompt is answered (fact sheet a1 #10), which no flow sees.
        public func reachedAlwaysPreciseMotion(simulatorClassDevice: Bool) -> Bool {
            isBackgroundCollectionPossible
                && PermissionsWizard.isAllRequiredPermissionsGranted(
                    session.device, isSimulatorClassDevice: simulatorClassDevice)
        }
    }

    /// Runs the layer's main request on a fresh session of this person and phone, starting
    /// at `start` (by default a fixed instant, so reports do not depend on the clock), then
    /// runs what is still queued (`ending`).
    public func run(
        setup: DeviceSetup, user: SimulatedUser, lifecycle: [PermissionSession.ScriptedEvent] = [],
        options: Options = Options(), start: SimInstant = SimInstant(nanosecondsSinceEpoch: 1_700_000_000_000_000_000),
        ending: Ending = .drained
    ) -> Run {
        var session = PermissionSession(
            device: Device(configuration: setup.configuration), user: user, script: lifecycle, start: start)
        let start = session.now
        var run = Run(layer: self, session: session, secondsTaken: 0)
        switch self {
        case .doorstep:
            run.doorstep = DoorstepAI.requestPermissions(
                &session, options.whitelist, onlyIfNotDetermined: !options.force)
        case .bggeo:
            let status = BackgroundGeolocation.requestPermission(&session)
            run.bggeo = (status, BackgroundGeolocation.getProviderState(session))
        case .airship:
            run.airship = AirshipLocationPermissionDelegate.requestPermission(&session)
        case .wizard:
            var presentation = PermissionsWizard.Presentation()
            presentation.isSimulatorClassDevice = setup.isSimulatorClassDevice
            run.wizard = PermissionsWizard.launch(
                &session, configuration: options.wizardConfiguration, presentation: presentation,
                statusAction: options.wizardStatusAction)
        }
        run.secondsTaken = session.now.seconds(since: start)
        switch ending {
        case .drained: session.drain()
        case .settled: session.settle()
        }
        run.session = session
        return run
    }

    /// The exact share of a population that ends with Always + Precise + Motion under this layer.
    ///
    /// Enumerates every combination of answers (each person answers every prompt of a kind
    /// the same way); a combination's weight is the product of its answers' probabilities,
    /// and prompts a run never shows contribute a factor of one, so the sum is exact.
    public func share(of population: Population, setup: DeviceSetup, options: Options = Options()) -> (
        share: Double, combinations: Int
    ) {
        let families = SimulatedUser.PromptFamily.allCases
        let choices = families.map { population.choices[$0] ?? [(nil, 1)] }
        var indices = [Int](repeating: 0, count: families.count)
        var share = 0.0
        var combinations = 0
        while true {
            var responses: [SimulatedUser.PromptFamily: [SimulatedUser.Response]] = [:]
            var weight = 1.0
            for (position, family) in families.enumerated() {
                let choice = choices[position][indices[position]]
                weight *= choice.probability
                responses[family] = [choice.answer.map { .answer($0, afterSeconds: 2) } ?? .neverAnswers]
            }
            if let user = try? SimulatedUser(responses: responses) {
                combinations += 1
                if run(setup: setup, user: user, options: options).reachedAlwaysPreciseMotion(
                    simulatorClassDevice: setup.isSimulatorClassDevice)
                {
                    share += weight
                }
            }
            // Odometer step over the answer choices.
            var position = families.count - 1
            while position >= 0 {
                indices[position] += 1
                if indices[position] < choices[position].count { break }
                indices[position] = 0
                position -= 1
            }
            if position < 0 { break }
        }
        return (share, combinations)
    }
}
