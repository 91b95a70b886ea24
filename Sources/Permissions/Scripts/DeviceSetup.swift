import ConfigJSON
import Device
import Traces

/// The phone at the start, from `DEVICE.json`; the default is a fresh install with every
/// Info.plist key declared.
///
/// ```
/// {"osProfile": "ios26",
///  "parameters": {"whenInUseLockCutoffSeconds": 13, "wakeWindowSeconds": 10,
///                 "regionRelaunchAfterForceQuit": "profile", "lowPowerMode": false},
///  "simulatorClassDevice": false,
///  "infoPlist": {"whenInUseUsageDescription": true, "alwaysAndWhenInUseUsageDescription": true,
///                "motionUsageDescription": true, "bluetoothUsageDescription": true,
///                "temporaryFullAccuracyPurposes": ["Delivery"], "locationBackgroundMode": true,
///                "defaultAccuracyReduced": false},
///  "authorization": {"location": "notDetermined", "precise": true, "locationServices": true,
///                    "motion": "notDetermined", "motionAvailable": true, "bluetooth": "notDetermined"}}
/// ```
///
/// `parameters` sets any `DeviceParameters` value by the name and unit `tracesim rules`
/// prints; `osProfile` may be given there or at the top level, not both. A flag the OS profile
/// decides (`regionRelaunchAfterForceQuit`, `significantChangeRelaunchAfterForceQuit`) takes
/// `true`, `false` or `"profile"`, the default, to follow `osProfile`.
public struct DeviceSetup: Sendable {
    /// The device configuration.
    public var configuration = Device.Configuration()
    /// Motion counts as granted (wizard only).
    public var isSimulatorClassDevice = false

    /// A fresh install.
    public init() {}

    /// Reads `DEVICE.json`.
    /// - Throws: `ConfigError` with the line, column and JSON path of the first problem.
    public static func parse(_ bytes: [UInt8], file: String) throws(ConfigError) -> DeviceSetup {
        let reader = ConfigReader(file: file)
        return try parse(try ConfigJSON.parse(bytes, file: file), at: "$", reader: reader)
    }

    /// Reads the same shape from `root`, a node inside a larger file, at JSON path `path`.
    /// Whatever the block leaves out keeps its value in `base`; each key of its
    /// `authorization` object replaces only that value of `base`'s.
    public static func parse(
        _ root: JSONNode, at path: String, reader: ConfigReader, over base: Device.Configuration = .init()
    ) throws(ConfigError) -> DeviceSetup {
        let members = try reader.object(
            root, path, allowed: ["osProfile", "parameters", "simulatorClassDevice", "infoPlist", "authorization"])
        var setup = DeviceSetup()
        setup.configuration = base
        if let node = members["osProfile"] {
            setup.configuration.parameters.osProfile = try reader.token(
                node, "\(path).osProfile", OSBehaviourProfile.names)
        }
        if let node = members["parameters"] {
            let outer = path
            let path = "\(path).parameters"
            let fields = try reader.object(node, path, allowed: DeviceParameters.descriptors.map(\.name))
            if members["osProfile"] != nil, let repeated = fields["osProfile"] {
                throw reader.fail(
                    repeated, "\(path).osProfile",
                    "osProfile is already set at \(outer).osProfile; set it in one place, beside parameters or in it")
            }
            try readParameters(fields, at: path, reader: reader, into: &setup.configuration.parameters)
            // A pair out of order (a minimum above its maximum) is blamed on its first member
            // when both were given, otherwise on the parameters object: the other came from
            // the defaults, and the message names both values.
            if let (name, other, reason) = setup.configuration.parameters.inconsistency {
                if let blamed = fields[name], fields[other] != nil {
                    throw reader.fail(blamed, "\(path).\(name)", reason)
                }
                throw reader.fail(node, path, "\(name) \(reason)")
            }
        }
        if let node = members["simulatorClassDevice"] {
            setup.isSimulatorClassDevice = try reader.bool(node, "\(path).simulatorClassDevice")
        }
        if let plistNode = members["infoPlist"] {
            let path = "\(path).infoPlist"
            let plist = try reader.object(
                plistNode, path,
                allowed: [
                    "whenInUseUsageDescription", "alwaysAndWhenInUseUsageDescription", "motionUsageDescription",
                    "bluetoothUsageDescription", "temporaryFullAccuracyPurposes", "locationBackgroundMode",
                    "defaultAccuracyReduced",
                ])
            var info = base.infoPlist
            func flag(_ key: String, _ target: inout Bool) throws(ConfigError) {
                if let node = plist[key] { target = try reader.bool(node, "\(path).\(key)") }
            }
            try flag("whenInUseUsageDescription", &info.hasWhenInUseUsageDescription)
            try flag("alwaysAndWhenInUseUsageDescription", &info.hasAlwaysAndWhenInUseUsageDescription)
            try flag("motionUsageDescription", &info.hasMotionUsageDescription)
            try flag("bluetoothUsageDescription", &info.hasBluetoothUsageDescription)
            try flag("locationBackgroundMode", &info.hasLocationBackgroundMode)
            try flag("defaultAccuracyReduced", &info.defaultAccuracyReduced)
            for (index, node) in try reader.optionalArray(plist, "temporaryFullAccuracyPurposes", path).enumerated() {
                info.temporaryFullAccuracyPurposes.insert(
                    try reader.string(node, "\(path).temporaryFullAccuracyPurposes[\(index)]"))
            }
            setup.configuration.infoPlist = info
        }
        if let node = members["authorization"] {
            let path = "\(path).authorization"
            let fields = try reader.object(
                node, path,
                allowed: [
                    "location", "precise", "locationServices", "motion", "motionAvailable", "bluetooth",
                ])
            var state = base.authorization
            if let value = fields["location"] {
                state.storedStatus = try reader.token(
                    value, "\(path).location", AuthorizationStatus.allCases.map { ($0.name, $0) })
            }
            if let value = fields["precise"] { state.isPrecise = try reader.bool(value, "\(path).precise") }
            if let value = fields["locationServices"] {
                state.isLocationServicesEnabled = try reader.bool(value, "\(path).locationServices")
            }
            if let value = fields["motion"] {
                state.motionStatus = try reader.token(
                    value, "\(path).motion",
                    [
                        ("notDetermined", .notDetermined), ("restricted", .restricted), ("denied", .denied),
                        ("authorized", .authorized),
                    ])
            }
            if let value = fields["motionAvailable"] {
                state.isMotionAvailable = try reader.bool(value, "\(path).motionAvailable")
            }
            if let value = fields["bluetooth"] {
                state.bluetoothStatus = try reader.token(
                    value, "\(path).bluetooth",
                    [
                        ("notDetermined", .notDetermined), ("restricted", .restricted), ("denied", .denied),
                        ("allowedAlways", .allowedAlways),
                    ])
            }
            setup.configuration.authorization = state
        }
        return setup
    }

    /// Sets each named parameter, in the catalogue's order so errors come out the same way
    /// every time, each value checked against its descriptor's kind and range.
    private static func readParameters(
        _ fields: [String: JSONNode], at path: String, reader: ConfigReader,
        into parameters: inout DeviceParameters
    ) throws(ConfigError) {
        for descriptor in DeviceParameters.descriptors {
            guard let node = fields[descriptor.name] else { continue }
            let path = "\(path).\(descriptor.name)"
            let value: DeviceParameterDescriptor.Value
            switch descriptor.kind {
            case .number(let range):
                value = .number(try reader.number(node, path, in: range))
            case .integer(let range):
                let number = try reader.number(node, path, in: Double(range.lowerBound)...Double(range.upperBound))
                guard number == number.rounded() else { throw reader.fail(node, path, "expected a whole number") }
                value = .integer(Int(number))
            case .flag:
                value = .flag(try reader.bool(node, path))
            case .optionalFlag:
                let followsProfile = DeviceParameterDescriptor.Value.followsProfile
                switch node.value {
                case .bool(let flag):
                    value = .optionalFlag(flag)
                case .string(let text) where text == followsProfile:
                    value = .optionalFlag(nil)
                case .string, .number, .null, .array, .object:
                    throw reader.fail(node, path, "expected true, false or \"\(followsProfile)\"")
                }
            case .profile:
                value = .profile(try reader.token(node, path, OSBehaviourProfile.names))
            }
            do {
                try descriptor.set(value, in: &parameters)
            } catch {
                throw reader.fail(node, path, error.reason)
            }
        }
    }
}

/// How a population answers, from `POP.json`: for each prompt, the probability of each answer.
///
/// `{"location": {"allowWhileUsing": 0.6, "allowOnce": 0.1, "dontAllow": 0.3}, "upgrade": {...}, ...}`
/// Each prompt's probabilities must add up to 1; a prompt left out is never answered.
public struct Population: Sendable {
    /// Per prompt family, the answers with their probabilities (`nil` answer is `noAnswer`).
    public var choices: [SimulatedUser.PromptFamily: [(answer: PromptAnswer?, probability: Double)]]

    /// Creates a population.
    public init(choices: [SimulatedUser.PromptFamily: [(answer: PromptAnswer?, probability: Double)]]) {
        self.choices = choices
    }

    /// Reads `POP.json`.
    public static func parse(_ bytes: [UInt8], file: String) throws(ConfigError) -> Population {
        let reader = ConfigReader(file: file)
        let root = try ConfigJSON.parse(bytes, file: file)
        let members = try reader.object(root, "$", allowed: UserScript.answers.map(\.prompt))
        var choices: [SimulatedUser.PromptFamily: [(answer: PromptAnswer?, probability: Double)]] = [:]
        for vocabulary in UserScript.answers {
            guard let node = members[vocabulary.prompt] else { continue }
            let path = "$.\(vocabulary.prompt)"
            let entries = try reader.object(node, path, allowed: vocabulary.answers.map(\.0))
            var list: [(answer: PromptAnswer?, probability: Double)] = []
            for (name, answer) in vocabulary.answers {
                guard let value = entries[name] else { continue }
                list.append((answer, try reader.number(value, "\(path).\(name)", in: 0...1)))
            }
            let total = list.map(\.probability).reduce(0, +)
            guard abs(total - 1) < 1e-9 else {
                throw reader.fail(node, path, "probabilities add up to \(total), not 1")
            }
            choices[vocabulary.family] = list.filter { $0.probability > 0 }
        }
        return Population(choices: choices)
    }
}
