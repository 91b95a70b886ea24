import Device

/// The bucket requester (DoorstepAI-style, seed document 000), on the simulated device.
/// Each call takes the session it runs in; nothing is global.
public enum DoorstepAI {
    /// Every bucket's status, never prompting.
    public static func checkPermissions(
        _ session: PermissionSession, _ permissions: [DoorstepPermission] = DoorstepPermission.all
    ) -> [DoorstepPermission: DoorstepPermissionStatus] {
        Dictionary(permissions.map { ($0, checkPermission(session, $0)) }, uniquingKeysWith: { first, _ in first })
    }

    /// One bucket's status, never prompting: status reads only.
    public static func checkPermission(_ session: PermissionSession, _ permission: DoorstepPermission)
        -> DoorstepPermissionStatus
    {
        status(of: permission, on: session.device)
    }

    static func status(of permission: DoorstepPermission, on device: Device) -> DoorstepPermissionStatus {
        let state = device.authorization.state
        let plist = device.authorization.infoPlist
        func make(_ verdict: DoorstepPermissionState, _ os: String) -> DoorstepPermissionStatus {
            DoorstepPermissionStatus(
                permission: permission, state: verdict, osStatus: os, canRequest: verdict == .notDetermined)
        }
        switch permission {
        case .locationWhenInUse, .locationAlways:
            let declared =
                plist.hasWhenInUseUsageDescription
                && (permission == .locationWhenInUse || plist.hasAlwaysAndWhenInUseUsageDescription)
            if !declared {
                let key =
                    plist.hasWhenInUseUsageDescription ? permission.infoPlistKey : "NSLocationWhenInUseUsageDescription"
                return make(.notDeclared, "missingInfoPlistKey(\(key))")
            }
            var os = "\(state.status.name),accuracy=\(state.accuracy == .fullAccuracy ? "full" : "reduced")"
            if !state.isLocationServicesEnabled { os += ",locationServicesEnabled=false" }
            switch state.status {
            case .notDetermined: return make(.notDetermined, os)
            case .restricted: return make(.restricted, os)
            case .denied: return make(.permanentlyDenied, os)
            case .authorizedAlways: return make(.granted, os)
            case .authorizedWhenInUse: return make(permission == .locationAlways ? .whenInUseOnly : .granted, os)
            }
        case .motionFitness:
            guard plist.hasMotionUsageDescription else {
                return make(.notDeclared, "missingInfoPlistKey(\(permission.infoPlistKey))")
            }
            let raw = state.motionStatus.rawValue
            let os = "cmMotionActivity=\(raw),cmSensorRecorder=\(raw)"
            guard state.isMotionAvailable else { return make(.unavailable, os + ",isActivityAvailable=false") }
            switch state.motionStatus {
            case .notDetermined: return make(.notDetermined, os)
            case .restricted: return make(.restricted, os)
            case .denied: return make(.permanentlyDenied, os)
            case .authorized: return make(.granted, os)
            }
        case .bluetooth:
            guard plist.hasBluetoothUsageDescription else {
                return make(.notDeclared, "missingInfoPlistKey(\(permission.infoPlistKey))")
            }
            let os = "cbManagerAuthorization=\(state.bluetoothStatus.rawValue)"
            switch state.bluetoothStatus {
            case .notDetermined: return make(.notDetermined, os)
            case .restricted: return make(.restricted, os)
            case .denied: return make(.permanentlyDenied, os)
            case .allowedAlways: return make(.granted, os)
            }
        }
    }

    /// `{"<permission>":{"state":"…","canRequest":…,"os":"…"}}`, buckets in declaration order.
    public static func checkPermissionsJson(
        _ session: PermissionSession, _ permissions: [DoorstepPermission] = DoorstepPermission.all
    ) -> String {
        let statuses = checkPermissions(session, permissions)
        let members = DoorstepPermission.allCases.compactMap { permission -> String? in
            guard let status = statuses[permission] else { return nil }
            return
                "\"\(permission.rawValue)\":{\"state\":\"\(status.state.rawValue)\",\"canRequest\":\(status.canRequest),"
                + "\"os\":\"\(status.osStatus)\"}"
        }
        return "{" + members.joined(separator: ",") + "}"
    }
}
