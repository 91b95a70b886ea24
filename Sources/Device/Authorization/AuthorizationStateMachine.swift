/// Location, motion and Bluetooth authorization, and which system prompt a request shows.
///
/// A pure state machine: requests, answers and Settings changes go in as past-tense events,
/// prompts and delegate callbacks come out as actions. Whether the app is in the
/// foreground or in use is the caller's to say (`Context`), since the lifecycle lives in
/// `LifecycleStateMachine`. `Device` drives it; read it through `Device.authorization`.
public struct AuthorizationStateMachine: Sendable {
    /// Everything iOS remembers about the app's permissions.
    public struct State: Sendable, Equatable {
        /// The app's own location grant, kept while Location Services is off.
        public var storedStatus: AuthorizationStatus = .notDetermined
        /// Privacy > Location Services, device-wide.
        public var isLocationServicesEnabled = true
        /// The user's Precise Location switch.
        public var isPrecise = true
        /// A temporary full-accuracy grant, until the next launch.
        public var hasTemporaryFullAccuracy = false
        /// The current When-In-Use grant is Allow Once.
        public var isAllowOnce = false
        /// The one Always request has been used (since the status last became notDetermined:
        /// an Allow Once lapse or Ask Next Time makes it available again).
        public var hasUsedAlwaysRequest = false
        /// `authorizedAlways` is provisional (ios13 profile) until the deferred prompt is answered.
        public var isProvisionalAlways = false
        /// The deferred upgrade prompt may still be shown, once.
        public var isDeferredUpgradePending = false
        /// An Always-requiring event asked for the deferred upgrade prompt while the screen was
        /// locked: it appears when the person next has the phone unlocked.
        public var isDeferredUpgradeAwaitingUser = false
        /// Motion & Fitness.
        public var motionStatus: MotionAuthorizationStatus = .notDetermined
        /// Motion hardware is present.
        public var isMotionAvailable = true
        public var bluetoothStatus: BluetoothAuthorizationStatus = .notDetermined
        /// The prompt on screen, awaiting an answer.
        public var promptOnScreen: PromptKind?

        /// Creates the state of a fresh install.
        public init() {}

        /// What `CLLocationManager.authorizationStatus` reports. Models Location Services off
        /// reading as `denied` (a1 #3); `restricted` stays `restricted`.
        public var status: AuthorizationStatus {
            guard isLocationServicesEnabled || storedStatus == .restricted else { return .denied }
            return storedStatus
        }

        /// Always that is not provisional: what background delivery, relaunch and keep-alive need.
        package var isFullAlways: Bool {
            @inline(__always) get { status == .authorizedAlways && !isProvisionalAlways }
        }

        /// What `CLLocationManager.accuracyAuthorization` reports.
        public var accuracy: AccuracyAuthorization {
            isPrecise || hasTemporaryFullAccuracy ? .fullAccuracy : .reducedAccuracy
        }
    }

    /// A request, answer or change, in the past tense.
    package enum Event: Sendable, Equatable {
        /// The app called `requestWhenInUseAuthorization()`.
        case whenInUseRequested
        /// The app called `requestAlwaysAuthorization()`.
        case alwaysRequested
        /// The app called `requestTemporaryFullAccuracyAuthorization(withPurposeKey:)`.
        case temporaryFullAccuracyRequested(purpose: String)
        /// The app started motion-activity updates or queried activity.
        case motionRequested
        /// The app created a `CBCentralManager`.
        case centralManagerCreated
        /// The user answered the prompt on screen.
        case promptAnswered(PromptAnswer)
        /// The user changed Settings.
        case settingsChanged(SettingsChange)
        /// The app stopped being in use (past the When-In-Use cutoff, not in the foreground).
        case appStoppedBeingInUse
        /// The app process was launched (by the user or in the background).
        case appLaunched
        /// Core Location is about to deliver an event that requires Always.
        case alwaysRequiringEventOccurred
        /// The person has the phone unlocked in front of them (an unlock, a launch, a switch).
        case userCanSeeScreen
    }

    /// What the caller knows about the app at the time of the event.
    package struct Context: Sendable, Equatable {
        /// The app is in the foreground.
        package var isInForeground: Bool
        /// The screen is locked: nobody can answer a prompt.
        package var isScreenLocked: Bool

        package init(isInForeground: Bool, isScreenLocked: Bool = false) {
            self.isInForeground = isInForeground
            self.isScreenLocked = isScreenLocked
        }
    }

    /// What the device does in response.
    package enum Action: Sendable, Equatable {
        /// Show a system prompt.
        case showPrompt(PromptKind)
        /// A request showed nothing, for this rule.
        case suppressPrompt(PromptKind, DeviceRule)
        /// `locationManagerDidChangeAuthorization(_:)` with the new status and accuracy.
        case notifyAuthorizationChanged(AuthorizationStatus, AccuracyAuthorization)
        /// The temporary full-accuracy completion handler.
        case completeTemporaryFullAccuracy(granted: Bool)
        case notifyMotionAuthorizationChanged(MotionAuthorizationStatus)
        /// `centralManagerDidUpdateState(_:)` after an authorization change.
        case notifyBluetoothAuthorizationChanged(BluetoothAuthorizationStatus)
        /// The app is terminated by the system, for this rule.
        case terminateApp(DeviceRule)
    }

    /// The current state.
    public private(set) var state: State
    /// The app's declarations.
    public let infoPlist: InfoPlist
    /// The OS behaviour profile for first-time Always requests.
    public let profile: OSBehaviourProfile
    /// Whether Allow While Using on a first Always request grants provisional Always
    /// (`DeviceParameters.firstAlwaysRequestGrantsProvisional`: the profile's rule or its override).
    let firstAlwaysGrantsProvisional: Bool

    package init(
        state: State = State(), infoPlist: InfoPlist = InfoPlist(), profile: OSBehaviourProfile = .current,
        firstAlwaysGrantsProvisional: Bool? = nil
    ) {
        self.state = state
        self.infoPlist = infoPlist
        self.profile = profile
        self.firstAlwaysGrantsProvisional = firstAlwaysGrantsProvisional ?? (profile == .ios13)
    }

    /// Applies an event.
    /// - Returns: the prompts, suppressions and callbacks it causes, in order.
    package mutating func handle(_ event: Event, context: Context) -> [Action] {
        let before = (state.status, state.accuracy)
        var actions: [Action]
        switch event {
        case .whenInUseRequested: actions = requestWhenInUse(context)
        case .alwaysRequested: actions = requestAlways(context)
        case .temporaryFullAccuracyRequested(let purpose): actions = requestTemporaryFullAccuracy(purpose, context)
        case .motionRequested: actions = requestMotion(context)
        case .centralManagerCreated: actions = requestBluetooth(context)
        case .promptAnswered(let answer): actions = apply(answer)
        case .settingsChanged(let change): actions = apply(change)
        case .appStoppedBeingInUse:
            // Models Allow Once lapsing "when the app is no longer in use" (a1 #12); the status
            // is notDetermined again, so the one Always request is available again.
            if state.isAllowOnce {
                state.isAllowOnce = false
                state.storedStatus = .notDetermined
                state.hasUsedAlwaysRequest = false
            }
            actions = []
        case .appLaunched:
            // Models the temporary full-accuracy grant ending with the app session (a2 #9).
            state.hasTemporaryFullAccuracy = false
            actions = []
        case .alwaysRequiringEventOccurred:
            // Models the one-shot deferred upgrade prompt (a1 #10); it may appear while the
            // app is not running, so no foreground check. On a locked screen it waits for the
            // person (WWDC19 705: shown when the user is not busy; the event is not held here).
            if state.isDeferredUpgradePending, state.status == storedAlwaysOrWhenInUse {
                state.isDeferredUpgradeAwaitingUser = true
            }
            actions = showDeferredUpgradeIfPossible(context)
        case .userCanSeeScreen:
            actions = showDeferredUpgradeIfPossible(context)
        }
        let after = (state.status, state.accuracy)
        // Models every app's delegate being called when the device-wide switch moves, even
        // for an app whose status reads the same (a1 #4).
        var isServicesToggle = false
        if case .settingsChanged(.setLocationServices) = event { isServicesToggle = true }
        if after != before || isServicesToggle { actions.append(.notifyAuthorizationChanged(after.0, after.1)) }
        return actions
    }

    /// Shows the deferred upgrade prompt an Always-requiring event asked for, once the screen
    /// is unlocked and no other prompt is up.
    private mutating func showDeferredUpgradeIfPossible(_ context: Context) -> [Action] {
        guard state.isDeferredUpgradeAwaitingUser, state.isDeferredUpgradePending, !context.isScreenLocked,
            state.promptOnScreen == nil, state.status == storedAlwaysOrWhenInUse
        else { return [] }
        state.isDeferredUpgradeAwaitingUser = false
        state.isDeferredUpgradePending = false
        state.promptOnScreen = .deferredAlwaysUpgrade
        return [.showPrompt(.deferredAlwaysUpgrade)]
    }

    /// The status a pending deferred upgrade is compatible with (provisional Always under
    /// ios13, When-In-Use under the current profile).
    private var storedAlwaysOrWhenInUse: AuthorizationStatus {
        state.isProvisionalAlways ? .authorizedAlways : .authorizedWhenInUse
    }

    // MARK: Requests

    private mutating func requestWhenInUse(_ context: Context) -> [Action] {
        let kind = PromptKind.location
        if let rule = commonRefusal(context, needsAlwaysKey: false) { return [.suppressPrompt(kind, rule)] }
        guard state.storedStatus == .notDetermined else {
            let rule: DeviceRule =
                state.storedStatus == .denied ? .dontAllowIsFinal : .whenInUseRequestOnlyFromNotDetermined
            return [.suppressPrompt(kind, rule)]
        }
        if let rule = presentationRefusal(context) { return [.suppressPrompt(kind, rule)] }
        state.promptOnScreen = kind
        return [.showPrompt(kind)]
    }

    private mutating func requestAlways(_ context: Context) -> [Action] {
        let kind: PromptKind = state.storedStatus == .authorizedWhenInUse ? .alwaysUpgrade : .locationForAlways
        if let rule = commonRefusal(context, needsAlwaysKey: true) { return [.suppressPrompt(kind, rule)] }
        if state.isAllowOnce { return [.suppressPrompt(kind, .allowOnceIgnoresAlwaysRequests)] }
        if state.hasUsedAlwaysRequest { return [.suppressPrompt(kind, .alwaysRequestOncePerInstall)] }
        switch state.storedStatus {
        case .denied: return [.suppressPrompt(kind, .dontAllowIsFinal)]
        case .authorizedAlways: return [.suppressPrompt(kind, .alwaysRequestWhenAlwaysDoesNothing)]
        case .restricted: return [.suppressPrompt(kind, .restrictedCannotChange)]
        case .notDetermined, .authorizedWhenInUse: break
        }
        if let rule = presentationRefusal(context) { return [.suppressPrompt(kind, rule)] }
        state.hasUsedAlwaysRequest = true
        state.promptOnScreen = kind
        return [.showPrompt(kind)]
    }

    private mutating func requestTemporaryFullAccuracy(_ purpose: String, _ context: Context) -> [Action] {
        let kind = PromptKind.temporaryFullAccuracy(purpose: purpose)
        // Models "no callback ever comes" without a declared purpose (a2 #9).
        guard infoPlist.temporaryFullAccuracyPurposes.contains(purpose) else {
            return [.suppressPrompt(kind, .temporaryFullAccuracyNeedsPurposeKey)]
        }
        guard state.status.isAuthorized else {
            return [
                .suppressPrompt(kind, .noDeliveryWithoutAuthorization), .completeTemporaryFullAccuracy(granted: false),
            ]
        }
        guard state.accuracy == .reducedAccuracy else {
            return [
                .suppressPrompt(kind, .temporaryFullAccuracyNotNeededWhenPrecise),
                .completeTemporaryFullAccuracy(granted: true),
            ]
        }
        guard context.isInForeground else {
            return [
                .suppressPrompt(kind, .temporaryFullAccuracyFailsInBackground),
                .completeTemporaryFullAccuracy(granted: false),
            ]
        }
        guard state.promptOnScreen == nil else {
            return [.suppressPrompt(kind, .onePromptAtATime), .completeTemporaryFullAccuracy(granted: false)]
        }
        state.promptOnScreen = kind
        return [.showPrompt(kind)]
    }

    private mutating func requestMotion(_ context: Context) -> [Action] {
        guard infoPlist.hasMotionUsageDescription else { return [.terminateApp(.motionMissingUsageKeyCrashes)] }
        guard state.isMotionAvailable else { return [.suppressPrompt(.motion, .motionUnavailableWithoutHardware)] }
        guard state.motionStatus == .notDetermined else {
            let rule: DeviceRule = state.motionStatus == .restricted ? .restrictedCannotChange : .motionRequestPrompts
            return [.suppressPrompt(.motion, rule)]
        }
        if let rule = presentationRefusal(context) { return [.suppressPrompt(.motion, rule)] }
        state.promptOnScreen = .motion
        return [.showPrompt(.motion)]
    }

    private mutating func requestBluetooth(_ context: Context) -> [Action] {
        guard infoPlist.hasBluetoothUsageDescription else {
            return [.suppressPrompt(.bluetooth, .missingUsageKeyIgnoresRequest)]
        }
        guard state.bluetoothStatus == .notDetermined else {
            let rule: DeviceRule =
                state.bluetoothStatus == .restricted ? .restrictedCannotChange : .bluetoothPromptsOnCentralManager
            return [.suppressPrompt(.bluetooth, rule)]
        }
        if let rule = presentationRefusal(context) { return [.suppressPrompt(.bluetooth, rule)] }
        state.promptOnScreen = .bluetooth
        return [.showPrompt(.bluetooth)]
    }

    /// Reasons any location request does nothing, before its own rules apply.
    private func commonRefusal(_ context: Context, needsAlwaysKey: Bool) -> DeviceRule? {
        if state.storedStatus == .restricted { return .restrictedCannotChange }
        if !state.isLocationServicesEnabled { return .servicesOffReportsDenied }
        if !infoPlist.hasWhenInUseUsageDescription { return .missingUsageKeyIgnoresRequest }
        if needsAlwaysKey && !infoPlist.hasAlwaysAndWhenInUseUsageDescription { return .missingUsageKeyIgnoresRequest }
        return nil
    }

    /// Reasons a prompt that would be shown cannot be right now.
    private func presentationRefusal(_ context: Context) -> DeviceRule? {
        if !context.isInForeground { return .promptsOnlyInForeground }
        if state.promptOnScreen != nil { return .onePromptAtATime }
        return nil
    }

    // MARK: Answers

    private mutating func apply(_ answer: PromptAnswer) -> [Action] {
        guard let prompt = state.promptOnScreen else { return [] }
        state.promptOnScreen = nil
        switch (prompt, answer) {
        case (.location, .allowWhileUsing(let precise)), (.locationForAlways, .allowWhileUsing(let precise)):
            state.isPrecise = precise ?? shownPrecise
            state.isAllowOnce = false
            if prompt == .locationForAlways {
                // Models the first-time Always request by OS profile (a1 #9, d 17), or by
                // `firstAlwaysRequestGrantsProvisionalAlways` when a band sets it.
                state.isDeferredUpgradePending = true
                if firstAlwaysGrantsProvisional {
                    state.storedStatus = .authorizedAlways
                    state.isProvisionalAlways = true
                    return []
                }
            }
            state.storedStatus = .authorizedWhenInUse
        case (.location, .allowOnce(let precise)), (.locationForAlways, .allowOnce(let precise)):
            state.isPrecise = precise ?? shownPrecise
            state.isAllowOnce = true
            state.storedStatus = .authorizedWhenInUse
        case (.location, .dontAllow), (.locationForAlways, .dontAllow):
            state.storedStatus = .denied
        case (.alwaysUpgrade, .changeToAlways):
            state.storedStatus = .authorizedAlways
        case (.deferredAlwaysUpgrade, .changeToAlways):
            state.storedStatus = .authorizedAlways
            state.isProvisionalAlways = false
        case (.deferredAlwaysUpgrade, .keepWhileUsing):
            state.storedStatus = .authorizedWhenInUse
            state.isProvisionalAlways = false
        case (.alwaysUpgrade, .keepWhileUsing):
            break  // Models "stays When-In-Use, no delegate callback" (a1 #8).
        case (.temporaryFullAccuracy, .allow):
            state.hasTemporaryFullAccuracy = true
            return [.completeTemporaryFullAccuracy(granted: true)]
        case (.temporaryFullAccuracy, _):
            return [.completeTemporaryFullAccuracy(granted: false)]
        case (.motion, .allow):
            state.motionStatus = .authorized
            return [.notifyMotionAuthorizationChanged(.authorized)]
        case (.motion, _):
            state.motionStatus = .denied
            return [.notifyMotionAuthorizationChanged(.denied)]
        case (.bluetooth, .allow):
            state.bluetoothStatus = .allowedAlways
            return [.notifyBluetoothAuthorizationChanged(.allowedAlways)]
        case (.bluetooth, _):
            state.bluetoothStatus = .denied
            return [.notifyBluetoothAuthorizationChanged(.denied)]
        case (.location, .keepWhileUsing), (.location, .changeToAlways), (.location, .allow), (.location, .deny),
            (.locationForAlways, .keepWhileUsing), (.locationForAlways, .changeToAlways),
            (.locationForAlways, .allow), (.locationForAlways, .deny),
            (.alwaysUpgrade, .allowWhileUsing), (.alwaysUpgrade, .allowOnce), (.alwaysUpgrade, .dontAllow),
            (.alwaysUpgrade, .allow), (.alwaysUpgrade, .deny),
            (.deferredAlwaysUpgrade, .allowWhileUsing), (.deferredAlwaysUpgrade, .allowOnce),
            (.deferredAlwaysUpgrade, .dontAllow), (.deferredAlwaysUpgrade, .allow), (.deferredAlwaysUpgrade, .deny):
            break  // An answer that does not fit the prompt dismisses it; scripts are validated before.
        }
        return []
    }

    /// The Precise switch as the location prompt shows it. Models
    /// NSLocationDefaultAccuracyReduced starting it off (a2 #7).
    private var shownPrecise: Bool { !infoPlist.defaultAccuracyReduced }

    // MARK: Settings

    private mutating func apply(_ change: SettingsChange) -> [Action] {
        switch change {
        case .setLocationServices(let isOn):
            // Models the device-wide switch; the app's own grant is kept (a1 #4).
            state.isLocationServicesEnabled = isOn
        case .setPrecise(let isOn):
            state.isPrecise = isOn
        case .setAlways: setStoredStatus(.authorizedAlways)
        case .setWhileUsing: setStoredStatus(.authorizedWhenInUse)
        case .setNever: setStoredStatus(.denied)
        case .setAskNextTime:
            // Models Ask Next Time as the state Allow Once leaves: notDetermined, with the one
            // Always request available again (a1 #12).
            setStoredStatus(.notDetermined)
            if state.storedStatus == .notDetermined { state.hasUsedAlwaysRequest = false }
        case .setMotion(let isOn):
            guard state.motionStatus != .restricted else { return [] }
            state.motionStatus = isOn ? .authorized : .denied
            return [.notifyMotionAuthorizationChanged(state.motionStatus)]
        case .setBluetooth(let isOn):
            guard state.bluetoothStatus != .restricted else { return [] }
            state.bluetoothStatus = isOn ? .allowedAlways : .denied
            return [.notifyBluetoothAuthorizationChanged(state.bluetoothStatus)]
        }
        return []
    }

    /// The app's own permission row in Settings: a new choice replaces Allow Once, provisional
    /// Always and a pending deferred upgrade. A restricted app cannot change it (a1 #2).
    private mutating func setStoredStatus(_ status: AuthorizationStatus) {
        guard state.storedStatus != .restricted else { return }
        state.isAllowOnce = false
        state.isProvisionalAlways = false
        state.isDeferredUpgradePending = false
        state.isDeferredUpgradeAwaitingUser = false
        state.storedStatus = status
    }
}
