import SimulationCore

/// A person holding the phone: how they answer each prompt, and what they change in Settings
/// and when. Scripts are deterministic; the same script always answers the same way.
public struct SimulatedUser: Sendable, Equatable {
    /// How the user responds to one prompt.
    public enum Response: Sendable, Equatable {
        /// Answers after a delay in seconds.
        case answer(PromptAnswer, afterSeconds: Double)
        /// Leaves the prompt on screen forever.
        case neverAnswers
        /// Switches away from the app after a delay, leaving the prompt unanswered.
        case leavesApp(afterSeconds: Double)
    }

    /// The prompt families a script answers, each with its own queue of responses.
    public enum PromptFamily: String, Sendable, CaseIterable {
        /// The location prompt (from a When-In-Use or first Always request).
        case location
        /// Either Always upgrade prompt.
        case upgrade
        /// The temporary full-accuracy prompt.
        case temporaryFullAccuracy
        /// Motion & Fitness.
        case motion
        case bluetooth

        /// The family a prompt belongs to.
        public init(_ kind: PromptKind) {
            switch kind {
            case .location, .locationForAlways: self = .location
            case .alwaysUpgrade, .deferredAlwaysUpgrade: self = .upgrade
            case .temporaryFullAccuracy: self = .temporaryFullAccuracy
            case .motion: self = .motion
            case .bluetooth: self = .bluetooth
            }
        }

        /// Whether `answer` is one this family's prompt offers.
        public func offers(_ answer: PromptAnswer) -> Bool {
            switch answer {
            case .allowWhileUsing, .allowOnce, .dontAllow: self == .location
            case .keepWhileUsing, .changeToAlways: self == .upgrade
            case .allow, .deny:
                switch self {
                case .temporaryFullAccuracy, .motion, .bluetooth: true
                case .location, .upgrade: false
                }
            }
        }
    }

    /// A Settings change at a time, in seconds from the start of the replay.
    public struct ScheduledChange: Sendable, Equatable {
        /// Seconds from the start.
        public var atSeconds: Double
        /// The Settings row and its new value.
        public var change: SettingsChange

        /// `change`, made `atSeconds` after the replay starts.
        public init(atSeconds: Double, change: SettingsChange) {
            self.atSeconds = atSeconds
            self.change = change
        }
    }

    /// A script answer that the prompt it is for does not offer.
    public struct ScriptError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The family whose queue holds it.
        public var family: PromptFamily
        /// Its position in that queue.
        public var index: Int
        /// The answer the prompt does not offer.
        public var answer: PromptAnswer

        package init(family: PromptFamily, index: Int, answer: PromptAnswer) {
            self.family = family
            self.index = index
            self.answer = answer
        }

        /// Where in the script, and why it is refused: `upgrade[1]: 'allow' is not an answer…`.
        public var description: String {
            "\(family.rawValue)[\(index)]: '\(answer.name)' is not an answer the \(family.rawValue) prompt offers"
        }
    }

    private var responses: [PromptFamily: [Response]]
    private var used: [PromptFamily: Int] = [:]
    /// Settings changes, in time order.
    public let settingsChanges: [ScheduledChange]
    /// What reports call this person (`agreeable`, `keepsWhileUsing`); `nil` for a person read
    /// from a script file, whose answers are the file's.
    public var name: String?

    /// Creates a script. Each family's responses are used in order; the last repeats. A
    /// family without responses never answers.
    /// - Parameters:
    ///   - responses: each prompt family's answers, in order.
    ///   - settingsChanges: what the person changes in Settings, and when.
    ///   - name: what reports call the person; `nil` for a scripted one.
    /// - Throws: `ScriptError` for an answer its prompt does not offer.
    public init(
        responses: [PromptFamily: [Response]], settingsChanges: [ScheduledChange] = [], name: String? = nil
    ) throws(ScriptError) {
        for family in PromptFamily.allCases {
            for (index, response) in (responses[family] ?? []).enumerated() {
                if case .answer(let answer, _) = response, !family.offers(answer) {
                    throw ScriptError(family: family, index: index, answer: answer)
                }
            }
        }
        self.responses = responses
        self.name = name
        self.settingsChanges = settingsChanges.enumerated().sorted {
            ($0.element.atSeconds, $0.offset) < ($1.element.atSeconds, $1.offset)
        }.map(\.element)
    }

    /// Each family's responses as scripted, in order (the last repeats): what a USER.json holds,
    /// so a scenario can be written back to a file.
    package var scriptedResponses: [PromptFamily: [Response]] { responses }

    /// The next response to a prompt of this kind.
    public mutating func respond(to kind: PromptKind) -> Response {
        let family = PromptFamily(kind)
        guard let queue = responses[family], let last = queue.last else { return .neverAnswers }
        let index = used[family, default: 0]
        used[family] = index + 1
        return index < queue.count ? queue[index] : last
    }

    /// A user who allows everything at once: precise While Using, then Always, motion, Bluetooth.
    public static let agreeable = builtIn(
        "agreeable", location: .allowWhileUsing(precise: true), upgrade: .changeToAlways, others: .allow)

    /// A person who wants the app to have location only while using it: precise While Using,
    /// and Keep Only While Using on every Always upgrade prompt (the one at once and the
    /// deferred one an Always-requiring event raises); motion, Bluetooth and temporary full
    /// accuracy allowed. The person of the When-In-Use presets: an app that asks for Always
    /// does not get it (Apple, `requestAlwaysAuthorization()`: the upgrade prompt offers
    /// "Keep Only While Using").
    public static let keepsWhileUsing = builtIn(
        "keepsWhileUsing", location: .allowWhileUsing(precise: true), upgrade: .keepWhileUsing, others: .allow)

    /// A person who answers Allow Once (precise) every time the location prompt appears,
    /// including after each grant lapsed, and Keep Only While Using on an upgrade prompt;
    /// motion and the rest allowed. The person of the `allow-once` preset (Apple,
    /// `requestWhenInUseAuthorization()`: Allow Once grants a temporary When-In-Use
    /// authorization that ends when the app is no longer in use).
    public static let allowsOnce = builtIn(
        "allowsOnce", location: .allowOnce(precise: true), upgrade: .keepWhileUsing, others: .allow)

    /// A person who refuses location: Don't Allow on the location prompt and Keep Only While
    /// Using on an upgrade prompt; motion and the rest allowed, so a run shows what location
    /// alone costs. The person of `denied`.
    public static let refusesLocation = builtIn(
        "refusesLocation", location: .dontAllow, upgrade: .keepWhileUsing, others: .allow)

    /// A person who allows location as `agreeable` does (precise, then Always) and refuses
    /// Motion & Fitness. The person of `always-motion-denied`.
    public static let refusesMotion: SimulatedUser = {
        var user = builtIn(
            "refusesMotion", location: .allowWhileUsing(precise: true), upgrade: .changeToAlways, others: .allow)
        user.responses[.motion] = [.answer(.deny, afterSeconds: 2)]
        return user
    }()

    /// A person who grants Always with Precise off and refuses temporary full accuracy, so the
    /// app keeps approximate location whatever it asks. The person of `always-approximate`.
    public static let keepsApproximate: SimulatedUser = {
        var user = builtIn(
            "keepsApproximate", location: .allowWhileUsing(precise: false), upgrade: .changeToAlways, others: .allow)
        user.responses[.temporaryFullAccuracy] = [.answer(.deny, afterSeconds: 2)]
        return user
    }()

    /// The people the presets name, which a scenario file can name too
    /// (`"user": "keepsWhileUsing"`).
    public static let builtInPeople: [SimulatedUser] = [
        agreeable, keepsWhileUsing, allowsOnce, refusesLocation, refusesMotion, keepsApproximate,
    ]

    /// A built-in person: one answer per family after 2 s, the last repeating; `others` for
    /// temporary full accuracy, motion and Bluetooth.
    private static func builtIn(
        _ name: String, location: PromptAnswer, upgrade: PromptAnswer, others: PromptAnswer
    ) -> SimulatedUser {
        do {
            return try SimulatedUser(
                responses: [
                    .location: [.answer(location, afterSeconds: 2)],
                    .upgrade: [.answer(upgrade, afterSeconds: 2)],
                    .temporaryFullAccuracy: [.answer(others, afterSeconds: 2)],
                    .motion: [.answer(others, afterSeconds: 2)],
                    .bluetooth: [.answer(others, afterSeconds: 2)],
                ], name: name)
        } catch {
            preconditionFailure("the built-in script is valid: \(error)")
        }
    }
}

/// One line of the prompt log.
public struct PromptLogEntry: Sendable, Equatable {
    /// What happened to the prompt.
    public enum Outcome: Sendable, Equatable {
        /// It appeared on screen.
        case shown
        /// A request showed nothing, for this rule.
        case suppressed(DeviceRule)
        /// The user answered it.
        case answered(PromptAnswer)
    }

    public var time: SimInstant
    /// Which prompt.
    public var kind: PromptKind
    /// What happened.
    public var outcome: Outcome

    package init(time: SimInstant, kind: PromptKind, outcome: Outcome) {
        self.time = time
        self.kind = kind
        self.outcome = outcome
    }
}
