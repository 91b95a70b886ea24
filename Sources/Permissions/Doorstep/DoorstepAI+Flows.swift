import Device

extension DoorstepAI {
    /// The superseded boolean requester: a shim that translates its flags into a whitelist
    /// and behaves exactly like `requestPermissions`.
    @discardableResult
    public static func requestAllPermissions(
        _ session: inout PermissionSession, requestAlwaysLocation: Bool, requestBluetooth: Bool,
        onlyIfNotDetermined: Bool = true
    ) -> DoorstepPermissionRequestResult {
        requestPermissions(
            &session, legacyWhitelist(requestAlwaysLocation: requestAlwaysLocation, requestBluetooth: requestBluetooth),
            onlyIfNotDetermined: onlyIfNotDetermined)
    }

    /// The whitelist the boolean requester stands for.
    public static func legacyWhitelist(requestAlwaysLocation: Bool, requestBluetooth: Bool) -> [DoorstepPermission] {
        [requestAlwaysLocation ? .locationAlways : .locationWhenInUse, .motionFitness]
            + (requestBluetooth ? [.bluetooth] : [])
    }

    /// Starting a delivery builds the location collector, which asks for Always on its own
    /// the first time, whatever the whitelist said.
    /// - Returns: the device's reaction to that ask, empty on later deliveries.
    @discardableResult
    public static func startDelivery(_ session: inout PermissionSession) -> [DeviceAction] {
        guard !session[memory: Memory.self].collectorHasAsked else { return [] }
        session[memory: Memory.self].collectorHasAsked = true
        return session.perform(.app(.requestedAlways))
    }

    /// Route geofencing asks for location too, but only while it is still `notDetermined`.
    @discardableResult
    public static func startRouteGeofencing(_ session: inout PermissionSession) -> [DeviceAction] {
        guard session.device.authorization.state.status == .notDetermined else { return [] }
        return session.perform(.app(.requestedAlways))
    }

    /// One stage of the recommended flow and what came of it.
    public struct Stage: Sendable, Equatable {
        /// The stage's name: onboarding, upgradeToAlways, motionAndFitness, bluetooth.
        public var name: String
        /// The request result, `nil` when the stage decided not to ask.
        public var result: DoorstepPermissionRequestResult?
        /// The stage sent the user to Settings.
        public var openedSettings: Bool
    }

    /// The recommended staged flow: foreground location at onboarding, Always after the app's
    /// own explanation, then Motion & Fitness, then Bluetooth if still undetermined; each
    /// stage one call with one bucket, `gapSeconds` apart.
    public static func runStagedFlow(_ session: inout PermissionSession, gapSeconds: Double = 30) -> [Stage] {
        var stages: [Stage] = []
        stages.append(
            Stage(name: "onboarding", result: requestPermissions(&session, [.locationWhenInUse]), openedSettings: false)
        )
        session.advance(by: gapSeconds)
        let upgrade = requestPermissions(&session, [.locationAlways])
        let alwaysState = upgrade.statuses[.locationAlways]?.state
        let deadEnd: Set<DoorstepPermissionState> = [.whenInUseOnly, .permanentlyDenied, .restricted]
        stages.append(
            Stage(name: "upgradeToAlways", result: upgrade, openedSettings: alwaysState.map(deadEnd.contains) ?? false))
        session.advance(by: gapSeconds)
        stages.append(
            Stage(
                name: "motionAndFitness", result: requestPermissions(&session, [.motionFitness]), openedSettings: false)
        )
        session.advance(by: gapSeconds)
        if checkPermission(session, .bluetooth).state == .notDetermined {
            stages.append(
                Stage(name: "bluetooth", result: requestPermissions(&session, [.bluetooth]), openedSettings: false))
        } else {
            stages.append(Stage(name: "bluetooth", result: nil, openedSettings: false))
        }
        return stages
    }
}
