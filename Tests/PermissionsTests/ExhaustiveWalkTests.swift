import Device
import Permissions
import Testing

/// Walks every answer sequence (each answer, never answering, leaving the app mid-prompt)
/// over several starting phones and whitelists, and checks the invariants that must hold
/// whatever a person does.
@Suite("Exhaustive walk over answer sequences")
struct ExhaustiveWalkTests {
    static let responses: [SimulatedUser.PromptFamily: [SimulatedUser.Response]] = [
        .location: [
            .answer(.allowWhileUsing(precise: true), afterSeconds: 2), .answer(.allowWhileUsing(precise: false), afterSeconds: 2),
            .answer(.allowOnce(precise: true), afterSeconds: 2), .answer(.dontAllow, afterSeconds: 2), .neverAnswers,
            .leavesApp(afterSeconds: 1),
        ],
        .upgrade: [
            .answer(.changeToAlways, afterSeconds: 2), .answer(.keepWhileUsing, afterSeconds: 2), .neverAnswers,
            .leavesApp(afterSeconds: 1),
        ],
        .motion: [.answer(.allow, afterSeconds: 2), .answer(.deny, afterSeconds: 2), .neverAnswers, .leavesApp(afterSeconds: 1)],
        .bluetooth: [.answer(.allow, afterSeconds: 2), .answer(.deny, afterSeconds: 2), .neverAnswers, .leavesApp(afterSeconds: 1)],
    ]

    /// Every combination of one response per family.
    static var users: [SimulatedUser] {
        var users: [SimulatedUser] = []
        for location in responses[.location] ?? [] {
            for upgrade in responses[.upgrade] ?? [] {
                for motion in responses[.motion] ?? [] {
                    for bluetooth in responses[.bluetooth] ?? [] {
                        users.append(
                            Sessions.user([.location: [location], .upgrade: [upgrade], .motion: [motion], .bluetooth: [bluetooth]]))
                    }
                }
            }
        }
        return users
    }

    static let phones: [(String, @Sendable (inout Device.Configuration) -> Void)] = [
        ("fresh install", { _ in }),
        ("While Using", { $0.authorization.storedStatus = .authorizedWhenInUse }),
        (
            "no motion hardware, no Bluetooth key",
            {
                $0.authorization.isMotionAvailable = false
                $0.infoPlist.hasBluetoothUsageDescription = false
            }
        ),
        (
            "restricted, ios13",
            {
                $0.authorization.storedStatus = .restricted
                $0.parameters.osProfile = .ios13
            }
        ),
    ]

    static let whitelists: [[DoorstepPermission]] = [
        DoorstepPermission.all, [.locationAlways], [.locationWhenInUse, .locationAlways], [.motionFitness, .bluetooth],
    ]

    static let locationPrompts: Set<String> = ["location", "locationForAlways", "alwaysUpgrade"]

    /// Invariants that hold for any layer on any session.
    static func checkSessionInvariants(_ session: PermissionSession, _ label: String) {
        for entry in session.transcript {
            if case .promptShown = entry.action {
                #expect(entry.appPhase == .foreground, "prompt while not in the foreground: \(label)")
            }
        }
        let upgrades = session.promptsShown.filter { $0 == .alwaysUpgrade || $0 == .deferredAlwaysUpgrade }
        #expect(upgrades.count <= 1, "Always upgrade shown twice: \(label)")
    }

    @Test("bucket requester: one location prompt per call, foreground prompts, settled statuses, nothing asked for settled buckets")
    func doorstep() {
        var runs = 0
        for (phoneName, configure) in Self.phones {
            for whitelist in Self.whitelists {
                for force in [false, true] {
                    for (index, user) in Self.users.enumerated() {
                        var session = Sessions.make(user: user, configure: configure)
                        let label = "\(phoneName) \(whitelist.map(\.rawValue)) force=\(force) user#\(index)"
                        for call in 0..<2 {
                            let before = DoorstepAI.checkPermissions(session, whitelist)
                            let promptsBefore = session.promptsShown.count
                            let result = DoorstepAI.requestPermissions(&session, whitelist, onlyIfNotDetermined: !(force && call == 1))
                            let newPrompts = session.promptsShown.dropFirst(promptsBefore).map(\.name)
                            #expect(newPrompts.filter(Self.locationPrompts.contains).count <= 1, "two location prompts: \(label)")
                            #expect(result.statuses == DoorstepAI.checkPermissions(session, whitelist), "unsettled statuses: \(label)")
                            for bucket in result.requested {
                                let state = before[bucket]?.state
                                #expect(
                                    state != .granted && state != .unavailable && state != .notDeclared, "asked settled \(bucket): \(label)"
                                )
                            }
                            session.advance(by: 30)
                            session.perform(.user(.movedAppToForeground))
                        }
                        Self.checkSessionInvariants(session, label)
                        runs += 1
                    }
                }
            }
        }
        #expect(runs == Self.phones.count * Self.whitelists.count * 2 * Self.users.count)
    }

    @Test("facade, delegate and wizard: prompts only in the foreground, the Always upgrade at most once")
    func otherLayers() {
        for (phoneName, configure) in Self.phones {
            for (index, user) in Self.users.enumerated() {
                let label = "\(phoneName) user#\(index)"
                var facade = Sessions.make(user: user, configure: configure)
                _ = BackgroundGeolocation.requestPermission(&facade)
                facade.perform(.user(.movedAppToForeground))
                _ = BackgroundGeolocation.requestPermission(&facade)
                Self.checkSessionInvariants(facade, "bggeo " + label)
                var delegate = Sessions.make(user: user, configure: configure)
                _ = AirshipLocationPermissionDelegate.requestPermission(&delegate)
                Self.checkSessionInvariants(delegate, "airship " + label)
                var wizard = Sessions.make(user: user, configure: configure)
                _ = PermissionsWizard.launch(&wizard, configuration: .defaultConfiguration(appName: "A"))
                wizard.perform(.user(.movedAppToForeground))
                _ = PermissionsWizard.launch(&wizard, configuration: .defaultConfiguration(appName: "A"))
                Self.checkSessionInvariants(wizard, "wizard " + label)
            }
        }
    }
}
