import Device
import SimulationCore

extension DoorstepAI {
    /// The longest a forced re-ask waits: "Keep Only While Using" leaves nothing to observe.
    public static let forcedReaskTimeoutSeconds = 25.0

    /// Asks for exactly the whitelisted buckets, one prompt at a time, location → motion →
    /// bluetooth, waiting for each answer up to `timeout` seconds.
    ///
    /// - Parameters:
    ///   - session: where the request runs.
    ///   - permissions: the whitelist; only these buckets are ever requested.
    ///   - onlyIfNotDetermined: skip buckets already answered (`false` forces a re-ask).
    ///   - timeout: seconds to wait for each answer.
    ///   - completion: called with the settled result.
    /// - Returns: the same result.
    @discardableResult
    public static func requestPermissions(
        _ session: inout PermissionSession, _ permissions: [DoorstepPermission] = DoorstepPermission.all,
        onlyIfNotDetermined: Bool = true, timeout: Double = 120,
        completion: ((DoorstepPermissionRequestResult) -> Void)? = nil
    ) -> DoorstepPermissionRequestResult {
        var result = DoorstepPermissionRequestResult()
        let whitelist = DoorstepPermission.allCases.filter { permissions.contains($0) }
        if let inFlight = session[memory: Memory.self].inFlight {
            // Refused, not interleaved: nothing is asked, every bucket says why.
            let running = inFlight.whitelist.map(\.rawValue).joined(separator: ", ")
            let since = session.now.seconds(since: inFlight.since)
            let reason = DoorstepDeferralReason(
                code: "authorizationRequestInProgress",
                message:
                    "another request ([\(running)]) has been in flight for \(formatSeconds(since)); await its completion"
            )
            for permission in whitelist { result.deferred[permission] = reason }
            result.statuses = checkPermissions(session, whitelist)
            completion?(result)
            return result
        }
        guard !whitelist.isEmpty else {
            completion?(result)
            return result
        }
        session[memory: Memory.self].inFlight = (session.now, whitelist)

        // One location ask per call: Always, when whitelisted, is the ask and absorbs When-In-Use.
        var asks = whitelist
        if whitelist.contains(.locationAlways) && whitelist.contains(.locationWhenInUse) {
            asks.removeAll { $0 == .locationWhenInUse }
            result.deferred[.locationWhenInUse] = DoorstepDeferralReason(
                code: "foldedIntoLocationAlways",
                message:
                    "locationWhenInUse is asked by the locationAlways prompt; asking both is the re-escalation antipattern"
            )
        }
        for permission in asks {
            ask(permission, in: &session, forced: !onlyIfNotDetermined, timeout: timeout, into: &result)
        }
        session[memory: Memory.self].inFlight = nil
        result.statuses = checkPermissions(session, whitelist)
        completion?(result)
        return result
    }

    private static func ask(
        _ permission: DoorstepPermission, in session: inout PermissionSession, forced: Bool, timeout: Double,
        into result: inout DoorstepPermissionRequestResult
    ) {
        let status = checkPermission(session, permission)
        func skip(_ code: String, _ message: String) {
            result.deferred[permission] = DoorstepDeferralReason(code: code, message: message)
        }
        switch status.state {
        case .notDeclared:
            result.unavailable.append(permission)
            skip(
                "notDeclared",
                "the Info.plist key \(permission.infoPlistKey) is missing, so iOS would never show the prompt")
            return
        case .unavailable:
            result.unavailable.append(permission)
            skip("unavailable", "this device has no support for it")
            return
        case .granted:
            result.alreadyDetermined.append(permission)
            skip("alreadyGranted", "already granted; nothing to ask")
            return
        case .restricted:
            result.alreadyDetermined.append(permission)
            skip("authorizationRestricted", "restricted by device policy; no prompt can change it")
            return
        case .permanentlyDenied, .denied:
            result.alreadyDetermined.append(permission)
            let globally =
                !session.device.authorization.state.isLocationServicesEnabled
                && (permission == .locationAlways || permission == .locationWhenInUse)
            if globally {
                skip(
                    "authorizationDeniedGlobally",
                    "Location Services is off device-wide; Settings is the only route back")
            } else {
                skip(
                    "authorizationDenied",
                    "already answered: denied; iOS will not prompt again, Settings is the only route back")
            }
            return
        case .whenInUseOnly where !forced:
            result.alreadyDetermined.append(permission)
            skip(
                "whenInUseOnly",
                "already answered: While Using; the Always upgrade is the user's decision "
                    + "(deep-link to Settings or force with onlyIfNotDetermined: false)")
            return
        case .whenInUseOnly, .notDetermined:
            break
        }
        let event: DeviceEvent =
            switch permission {
            case .locationWhenInUse: .app(.requestedWhenInUse)
            case .locationAlways: .app(.requestedAlways)
            case .motionFitness: .app(.startedMotionUpdates)
            case .bluetooth: .app(.createdCentralManager)
            }
        // The first prompt, or the first reason the request went unanswered, decides; the
        // device's other actions (callbacks, timers) say neither.
        for action in session.perform(event) {
            if case .promptShown = action {
                result.requested.append(permission)
                let wait = status.state == .whenInUseOnly ? min(timeout, forcedReaskTimeoutSeconds) : timeout
                session.wait(atMost: wait) { $0.authorization.state.promptOnScreen == nil }
                return
            }
            if case .promptSuppressed(_, let rule) = action {
                let reason = reason(for: rule)
                skip(reason.code, reason.message)
                return
            }
            if case .appTerminated(let rule) = action {
                let reason = reason(for: rule)
                skip(reason.code, reason.message)
                return
            }
        }
        skip("noPrompt", "iOS showed no prompt")
    }

    /// The reason a suppressed prompt reports: the `CLServiceSession` diagnostic where one
    /// matches the rule (`serviceSessionReasons`), otherwise the rule's own name and catalogue
    /// summary, so a new device rule needs nothing here.
    static func reason(for rule: DeviceRule) -> DoorstepDeferralReason {
        serviceSessionReasons.first { $0.rule == rule }?.reason
            ?? DoorstepDeferralReason(code: rule.rawValue, message: rule.info.summary)
    }

    /// The rules a `CLServiceSession` diagnostic matches, each with the reason the requester
    /// reports in that diagnostic's words.
    static let serviceSessionReasons: [(rule: DeviceRule, reason: DoorstepDeferralReason)] = [
        // `authorizationDeniedGlobally`: Location Services is off for every app.
        (
            .servicesOffReportsDenied,
            DoorstepDeferralReason(code: "authorizationDeniedGlobally", message: "Location Services is off device-wide")
        ),
        // `authorizationRestricted`: parental controls or a profile.
        (
            .restrictedCannotChange,
            DoorstepDeferralReason(code: "authorizationRestricted", message: "restricted by device policy")
        ),
        // `authorizationDenied`: the person answered Don't Allow.
        (
            .dontAllowIsFinal,
            DoorstepDeferralReason(
                code: "authorizationDenied", message: "already denied; Settings is the only route back")
        ),
        // `insufficientlyInUse`: prompts appear only in the foreground.
        (
            .promptsOnlyInForeground,
            DoorstepDeferralReason(
                code: "insufficientlyInUse", message: "the app was not in the foreground, so iOS showed nothing")
        ),
        // `authorizationRequestInProgress`: another prompt is on screen.
        (
            .onePromptAtATime,
            DoorstepDeferralReason(
                code: "authorizationRequestInProgress", message: "another system prompt was still on screen")
        ),
        // `alwaysAuthorizationDenied`: the one Always request of an install is spent.
        (
            .alwaysRequestOncePerInstall,
            DoorstepDeferralReason(
                code: "alwaysAuthorizationDenied", message: "the one Always request of this install was already used")
        ),
        // `temporaryAuthorization`: Allow Once is in effect.
        (
            .allowOnceIgnoresAlwaysRequests,
            DoorstepDeferralReason(
                code: "temporaryAuthorization", message: "Allow Once is in effect; iOS ignores Always requests")
        ),
        // A missing usage key: the requester's own `notDeclared`, which no diagnostic has.
        (
            .missingUsageKeyIgnoresRequest,
            DoorstepDeferralReason(code: "notDeclared", message: "a usage-description key is missing")
        ),
        // The motion usage key missing terminates the app: also `notDeclared`.
        (
            .motionMissingUsageKeyCrashes,
            DoorstepDeferralReason(
                code: "notDeclared", message: "NSMotionUsageDescription is missing; iOS terminates the app")
        ),
    ]

    /// The rules reported by their own name and catalogue summary: every rule of the
    /// catalogue that no `CLServiceSession` diagnostic matches.
    static var rulesReportedByName: [DeviceRule] {
        DeviceRule.allCases.filter { rule in !serviceSessionReasons.contains { $0.rule == rule } }
    }

    private static func formatSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\((seconds * 10).rounded() / 10) s"
    }
}
