import Engine

extension Tuning {
    /// Every engine setting a scenario file holds, in the order a scenario file writes them. The
    /// ranges are what a scenario file accepts; each setting's default and its source are on
    /// `EngineConfiguration`'s stages.
    public static let parameters: [Parameter] = motion + gate + recording + background + geofencing

    private static func number(
        _ name: String, _ unit: String, _ range: ClosedRange<Double>, _ summary: String,
        set: @escaping @Sendable (inout EngineConfiguration, Double) -> Void,
        get: @escaping @Sendable (EngineConfiguration) -> Double?
    ) -> Parameter {
        Parameter(
            name: name, unit: unit, kind: .number(range), summary: summary,
            apply: { configuration, value in if case .number(let number) = value { set(&configuration, number) } },
            read: { get($0).map(SettingValue.number) })
    }

    private static func whole(_ parameter: Parameter) -> Parameter {
        var whole = parameter
        whole.isWhole = true
        return whole
    }

    private static func flag(
        _ name: String, _ summary: String, set: @escaping @Sendable (inout EngineConfiguration, Bool) -> Void,
        get: @escaping @Sendable (EngineConfiguration) -> Bool
    ) -> Parameter {
        Parameter(
            name: name, unit: "", kind: .bool, summary: summary,
            apply: { configuration, value in if case .bool(let flag) = value { set(&configuration, flag) } },
            read: { .bool(get($0)) })
    }

    private static func choice<Value: Sendable & Equatable>(
        _ name: String, _ summary: String, _ choices: [(String, Value)],
        set: @escaping @Sendable (inout EngineConfiguration, Value) -> Void,
        get: @escaping @Sendable (EngineConfiguration) -> Value
    ) -> Parameter {
        let table = choices.map { ($0.0, $0.1) }
        return Parameter(
            name: name, unit: "", kind: .tokens(choices.map(\.0)), summary: summary,
            apply: { configuration, value in
                if case .token(let token) = value, let chosen = table.first(where: { $0.0 == token }) {
                    set(&configuration, chosen.1)
                }
            },
            read: { configuration in
                let current = get(configuration)
                return table.first { $0.1 == current }.map { .token($0.0) }
            })
    }

    private static let motion: [Parameter] = [
        flag("startsMoving", "start moving with GPS on (changePace(true) at launch)") {
            $0.startsMoving = $1
        } get: {
            $0.startsMoving
        },
        choice(
            "stopRule", "how a stop is detected", [("timeout", .stopTimeout), ("radar", .radarDefault)]
        ) {
            $0.motion.stopRule = $1
        } get: {
            $0.motion.stopRule
        },
        number("stopTimeout", "s", 1...86_400, "stillness before stopping") {
            $0.motion.stopTimeoutSeconds = $1
        } get: {
            $0.motion.stopTimeoutSeconds
        },
        number("stationaryRadius", "m", 1...10_000, "the stationary region's radius") {
            $0.motion.stationaryRadiusMeters = $1
        } get: {
            $0.motion.stationaryRadiusMeters
        },
        choice(
            "smoothing", "smoothing after the gate",
            [("passThrough", .passThrough), ("adjust", .adjust), ("conservative", SmoothingPolicy.conservative)]
        ) {
            $0.smoothing = $1
        } get: {
            $0.smoothing
        },
    ]

    private static let gate: [Parameter] = [
        number("gate.horizontalAccuracy", "m", 1...100_000, "reject fixes less accurate than this") {
            $0.gate.maximumAccuracyMeters = $1
        } get: {
            $0.gate.maximumAccuracyMeters
        },
        number("gate.maxImpliedSpeed", "m/s", 1...100_000, "reject fixes implying a faster jump") {
            $0.gate.maximumImpliedSpeedMetersPerSecond = $1
        } get: {
            $0.gate.maximumImpliedSpeedMetersPerSecond
        },
        number("gate.maxAge", "s", 0...86_400, "reject fixes older than this when delivered") {
            $0.gate.maximumAgeSeconds = $1
        } get: {
            $0.gate.maximumAgeSeconds
        },
    ]

    private static let recording: [Parameter] = [
        number("distanceFilter", "m", 0...100_000, "record a fix only this far from the last recorded") {
            $0.distanceFilter.distanceFilterMeters = $1
        } get: {
            $0.distanceFilter.distanceFilterMeters
        },
        choice(
            "elasticity", "how the distance filter grows with speed",
            [
                ("transistorsoft", .transistorsoft(multiplier: 1)), ("mauron85", .mauron85),
                ("none", DistanceFilter.Elasticity.none),
            ]
        ) {
            $0.distanceFilter.elasticity = $1
        } get: {
            $0.distanceFilter.elasticity
        },
        number("odometerAccuracy", "m", 0...100_000, "the odometer ignores fixes less accurate than this") {
            $0.odometerAccuracyThresholdMeters = $1
        } get: {
            $0.odometerAccuracyThresholdMeters
        },
    ]

    private static let background: [Parameter] = [
        flag("backgroundUpdates", "allowsBackgroundLocationUpdates") {
            $0.locationOptions.allowsBackgroundLocationUpdates = $1
        } get: {
            $0.locationOptions.allowsBackgroundLocationUpdates
        },
        flag("backgroundSession", "hold a CLBackgroundActivitySession from the start") {
            $0.startsBackgroundSession = $1
        } get: {
            $0.startsBackgroundSession
        },
        flag("pausesLocationUpdatesAutomatically", "leave iOS's automatic pause on") {
            $0.locationOptions.pausesLocationUpdatesAutomatically = $1
        } get: {
            $0.locationOptions.pausesLocationUpdatesAutomatically
        },
        flag("preventSuspend", "keep a location service running while stationary") {
            $0.preventSuspend = $1
        } get: {
            $0.preventSuspend
        },
        number("heartbeatInterval", "s", 1...86_400, "a client timer while the app runs (unset: none)") {
            $0.heartbeatIntervalSeconds = $1
        } get: {
            $0.heartbeatIntervalSeconds
        },
        number("movingRegionRefresh", "m", 1...100_000, "re-centre the stationary region this far while moving") {
            $0.movingRegionRefreshMeters = $1
        } get: {
            $0.movingRegionRefreshMeters
        },
        flag("requestsMotionActivity", "ask for motion activity at all") {
            $0.requestsMotionActivity = $1
        } get: {
            $0.requestsMotionActivity
        },
    ]

    /// iOS monitors at most 20 regions per app ("Monitoring the user's proximity to geographic
    /// regions", Apple developer documentation), hence the ceiling of `maximumRegistered`.
    private static let geofencing: [Parameter] = [
        number("geofencing.proximityRadius", "m", 1...10_000_000, "register fences within this distance") {
            $0.geofencing.proximityRadiusMeters = $1
        } get: {
            $0.geofencing.proximityRadiusMeters
        },
        whole(
            number("geofencing.maximumRegistered", "", 1...20, "the most fences registered with iOS") {
                $0.geofencing.maximumRegisteredFences = Int($1)
            } get: {
                Double($0.geofencing.maximumRegisteredFences)
            }),
        number("geofencing.rerankInterval", "s", 1...86_400, "re-rank the nearest fences at most this often") {
            $0.geofencing.rerankIntervalSeconds = $1
        } get: {
            $0.geofencing.rerankIntervalSeconds
        },
        flag("geofencing.initialTriggerEntry", "fire ENTER at once when starting inside a fence") {
            $0.geofencing.initialTriggerEntry = $1
        } get: {
            $0.geofencing.initialTriggerEntry
        },
    ]
}
