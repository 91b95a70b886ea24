import ConfigJSON
import Device
import Permissions
import Testing

@Suite("device.parameters in DEVICE.json and scenario files")
struct DeviceParametersFileTests {
    private static func parse(_ text: String) throws(ConfigError) -> DeviceParameters {
        try DeviceSetup.parse(Array(text.utf8), file: "DEVICE.json").configuration.parameters
    }

    private static func message(_ text: String) -> String {
        do {
            _ = try parse(text)
            return "accepted"
        } catch {
            return error.description
        }
    }

    @Test("every parameter the catalogue lists can be set by its name, to a value other than its default")
    func everyParameterIsSettable() throws {
        for descriptor in DeviceParameters.descriptors {
            let json: String
            let expected: DeviceParameterDescriptor.Value
            switch descriptor.value(in: DeviceParameters()) {
            case .number(let value):
                let changed = descriptor.kind == .number(0...1) ? value / 2 : value + 1
                json = String(changed)
                expected = .number(changed)
            case .integer(let value):
                // Down by one, unless that leaves the range (locationsPerDelivery starts at 1).
                let changed = value > 1 ? value - 1 : value + 1
                json = String(changed)
                expected = .integer(changed)
            case .flag(let value):
                json = String(!value)
                expected = .flag(!value)
            case .optionalFlag(let value):
                json = value == true ? "false" : "true"
                expected = .optionalFlag(value != true)
            case .profile:
                json = "\"ios13\""
                expected = .profile(.ios13)
            }
            let parameters = try Self.parse(#"{"parameters": {"\#(descriptor.name)": \#(json)}}"#)
            #expect(descriptor.value(in: parameters) == expected, "\(descriptor.name)")
        }
    }

    @Test("the lock cutoff set to 13 s is the value the device uses")
    func cutoff() throws {
        let parameters = try Self.parse(#"{"parameters": {"whenInUseLockCutoffSeconds": 13}}"#)
        #expect(parameters.whenInUseLockCutoffSeconds == 13)
        #expect(parameters.catalogue.first { $0.name == "whenInUseLockCutoffSeconds" }?.value == "13")
    }

    @Test("a relaunch flag left to the profile reads \"profile\"; true, false and \"profile\" are accepted")
    func optionalFlags() throws {
        let defaults = DeviceParameters()
        #expect(defaults.regionRelaunchAfterForceQuit == nil)
        #expect(defaults.catalogue.first { $0.name == "regionRelaunchAfterForceQuit" }?.value == "profile")
        let set = try Self.parse(
            #"{"parameters": {"regionRelaunchAfterForceQuit": false, "significantChangeRelaunchAfterForceQuit": true}}"#)
        #expect(set.regionRelaunchAfterForceQuit == false)
        #expect(set.significantChangeRelaunchAfterForceQuit == true)
        let back = try Self.parse(#"{"parameters": {"regionRelaunchAfterForceQuit": "profile"}}"#)
        #expect(back.regionRelaunchAfterForceQuit == nil)
        // The profile decides only what is left to it.
        var ios18 = try Self.parse(#"{"osProfile": "ios18"}"#)
        #expect(ios18.relaunchesAfterForceQuit(for: .regionEvent))
        ios18.regionRelaunchAfterForceQuit = false
        #expect(!ios18.relaunchesAfterForceQuit(for: .regionEvent))
        #expect(ios18.relaunchesAfterForceQuit(for: .significantChange))
    }

    @Test("the switches and the memory-pressure rate are read by name")
    func switches() throws {
        let parameters = try Self.parse(
            #"{"parameters": {"lowPowerMode": true, "backgroundAppRefresh": false, "startsBeforeFirstUnlock": true, "memoryPressureKillsPerHour": 0.5}}"#
        )
        #expect(parameters.lowPowerMode && !parameters.backgroundAppRefresh && parameters.startsBeforeFirstUnlock)
        #expect(parameters.memoryPressureKillsPerHour == 0.5)
    }

    @Test("current is an alias of the newest profile, at the top level and under parameters")
    func profileAlias() throws {
        #expect(try Self.parse(#"{"osProfile": "current"}"#).osProfile == .ios26)
        #expect(try Self.parse(#"{"parameters": {"osProfile": "ios14-17"}}"#).osProfile == .ios14To17)
    }

    @Test(
        "malformed, out-of-range, wrong-kind and unknown parameters name the file, line and JSON path",
        arguments: [
            (#"{"parameters": {"wakeWindowSeconds": -1}}"#, "DEVICE.json:1:38: $.parameters.wakeWindowSeconds"),
            (#"{"parameters": {"wakeWindowSeconds": "10"}}"#, "DEVICE.json:1:38: $.parameters.wakeWindowSeconds"),
            (
                #"{"parameters": {"maximumMonitoredRegions": 2.5}}"#,
                "DEVICE.json:1:44: $.parameters.maximumMonitoredRegions"
            ),
            (#"{"parameters": {"motionStopFlickerProbability": 2}}"#, "DEVICE.json:1:49"),
            (
                #"{"parameters": {"regionRelaunchAfterForceQuit": 1}}"#,
                #"DEVICE.json:1:49: $.parameters.regionRelaunchAfterForceQuit: expected true, false or "profile""#
            ),
            (#"{"parameters": {"regionRelaunchAfterForceQuit": "ios26"}}"#, "DEVICE.json:1:49"),
            (#"{"parameters": {"lowPowerMode": "on"}}"#, "DEVICE.json:1:33: $.parameters.lowPowerMode"),
            (#"{"parameters": {"memoryPressureKillsPerHour": -1}}"#, "DEVICE.json:1:47"),
            (
                #"{"parameters": {"significantChangeDistanceSpread": 6}}"#,
                "DEVICE.json:1:52: $.parameters.significantChangeDistanceSpread"
            ),
            (
                #"{"parameters": {"significantChangeDistanceSpread": "wide"}}"#,
                "DEVICE.json:1:52: $.parameters.significantChangeDistanceSpread"
            ),
            (
                #"{"parameters": {"significantChangeDistanceMedianMeters": -750}}"#,
                "DEVICE.json:1:58: $.parameters.significantChangeDistanceMedianMeters"
            ),
            (
                #"{"parameters": {"significantChangeHorizontalAccuracyMeters": 0}}"#,
                "DEVICE.json:1:62: $.parameters.significantChangeHorizontalAccuracyMeters"
            ),
            (
                #"{"parameters": {"significantChangeHorizontalAccuracyMeters": null}}"#,
                "DEVICE.json:1:62: $.parameters.significantChangeHorizontalAccuracyMeters"
            ),
            (
                #"{"parameters": {"suspendedAppQueuesUpdates": "yes"}}"#,
                "DEVICE.json:1:46: $.parameters.suspendedAppQueuesUpdates"
            ),
            (
                #"{"parameters": {"lowPowerModeStopsWakes": 1}}"#,
                "DEVICE.json:1:43: $.parameters.lowPowerModeStopsWakes"
            ),
            (
                #"{"parameters": {"firstAlwaysRequestGrantsProvisionalAlways": "always"}}"#,
                "DEVICE.json:1:62: $.parameters.firstAlwaysRequestGrantsProvisionalAlways"
            ),
            (
                #"{"parameters": {"firstAlwaysRequestGrantsProvisionalAlways": [true]}}"#,
                "DEVICE.json:1:62: $.parameters.firstAlwaysRequestGrantsProvisionalAlways"
            ),
            (#"{"parameters": {"lockCutoff": 13}}"#, "DEVICE.json:1:31: $.parameters.lockCutoff: unknown key"),
            (#"{"parameters": {"osProfile": "ios12"}}"#, "DEVICE.json:1:30: $.parameters.osProfile"),
            (#"{"osProfile": "ios13", "parameters": {"osProfile": "ios13"}}"#, "DEVICE.json:1:52"),
            (#"{"parameters": [13]}"#, "DEVICE.json:1:16: $.parameters: expected an object"),
            (#"{"parameters": {"wakeWindowSeconds": 1e999}}"#, "DEVICE.json:1:"),
            (#"{"parameters": {"wakeWindowSeconds": 10"#, "DEVICE.json:1:"),
        ])
    func errors(text: String, prefix: String) {
        let message = Self.message(text)
        #expect(message.hasPrefix(prefix), "\(message)")
    }

    @Test(
        "a minimum above its maximum, or speeds out of order, is an error at the name or at the parameters object",
        arguments: [
            (
                #"{"parameters": {"motionOnsetLatencyMinimumSeconds": 12, "motionOnsetLatencyMaximumSeconds": 10}}"#,
                "DEVICE.json:1:53: $.parameters.motionOnsetLatencyMinimumSeconds: 12 is above "
                    + "motionOnsetLatencyMaximumSeconds (10); it must be at most that"
            ),
            (
                #"{"parameters": {"regionLatencyMinimumSeconds": 400}}"#,
                "DEVICE.json:1:16: $.parameters: regionLatencyMinimumSeconds 400 is above "
                    + "regionLatencyMaximumSeconds (15); it must be at most that"
            ),
            (
                #"{"parameters": {"reducedDisplacementMaximumMeters": 500}}"#,
                "DEVICE.json:1:16: $.parameters: reducedDisplacementMinimumMeters 1000 is above "
                    + "reducedDisplacementMaximumMeters (500)"
            ),
            (
                #"{"parameters": {"motionWalkingSpeedMetersPerSecond": 3}}"#,
                "DEVICE.json:1:16: $.parameters: motionWalkingSpeedMetersPerSecond 3 is above "
                    + "motionRunningSpeedMetersPerSecond (2.5)"
            ),
            (
                #"{"parameters": {"motionAutomotiveSpeedMetersPerSecond": 2}}"#,
                "DEVICE.json:1:16: $.parameters: motionRunningSpeedMetersPerSecond 2.5 is above "
                    + "motionAutomotiveSpeedMetersPerSecond (2)"
            ),
            (#"{"parameters": {"regionLatencyMinimumSeconds": 15}}"#, "accepted"),
        ])
    func inconsistentPairs(text: String, prefix: String) {
        let message = Self.message(text)
        #expect(message.hasPrefix(prefix), "\(message)")
    }

    @Test(
        "times stop at one year and distances at 40,000 km, said in words; unbounded values say ≥",
        arguments: [
            (#"{"parameters": {"wakeWindowSeconds": 31536000}}"#, "accepted"),
            (
                #"{"parameters": {"wakeWindowSeconds": 31536000.5}}"#,
                "DEVICE.json:1:38: $.parameters.wakeWindowSeconds: must be between 0 and 31536000, not 31536000.5"
            ),
            (
                #"{"parameters": {"whenInUseLockCutoffSeconds": 1e10}}"#,
                "DEVICE.json:1:47: $.parameters.whenInUseLockCutoffSeconds: must be between 0 and 31536000, "
                    + "not 10000000000"
            ),
            (#"{"parameters": {"regionCushionMeters": 40000000}}"#, "accepted"),
            (
                #"{"parameters": {"regionCushionMeters": 40000001}}"#,
                "DEVICE.json:1:40: $.parameters.regionCushionMeters: must be between 0 and 40000000, not 40000001"
            ),
            (
                #"{"parameters": {"reducedFixesPerHour": -1}}"#,
                "DEVICE.json:1:40: $.parameters.reducedFixesPerHour: must be ≥ 0, not -1"
            ),
        ])
    func bounds(text: String, prefix: String) {
        let message = Self.message(text)
        #expect(message == prefix || message.hasPrefix(prefix), "\(message)")
    }

    @Test(
        "regionMissProbability out of range, of the wrong kind, empty or cut off names the file, line and path",
        arguments: [
            (
                #"{"parameters": {"regionMissProbability": -0.1}}"#,
                "DEVICE.json:1:42: $.parameters.regionMissProbability: must be between 0 and 1, not -0.1"
            ),
            (
                #"{"parameters": {"regionMissProbability": 17.5}}"#,
                "DEVICE.json:1:42: $.parameters.regionMissProbability: must be between 0 and 1, not 17.5"
            ),
            (#"{"parameters": {"regionMissProbability": "0.07"}}"#, "DEVICE.json:1:42: $.parameters.regionMissProbability"),
            (#"{"parameters": {"regionMissProbability": ""}}"#, "DEVICE.json:1:42: $.parameters.regionMissProbability"),
            (#"{"parameters": {"regionMissProbability": true}}"#, "DEVICE.json:1:42: $.parameters.regionMissProbability"),
            (#"{"parameters": {"regionMissProbability": null}}"#, "DEVICE.json:1:42: $.parameters.regionMissProbability"),
            (#"{"parameters": {"regionMissProbability": [0.1]}}"#, "DEVICE.json:1:42: $.parameters.regionMissProbability"),
            (#"{"parameters": {"regionMissProbability": 1e999}}"#, "DEVICE.json:1:"),
            (#"{"parameters": {"regionMissProbability": 0.1"#, "DEVICE.json:1:"),
        ])
    func regionMissProbabilityErrors(text: String, prefix: String) {
        let message = Self.message(text)
        #expect(message.hasPrefix(prefix), "\(message)")
    }

    @Test("regionMissProbability's band ends and default are read as given", arguments: [0, 0.07, 0.175, 1])
    func regionMissProbabilityValues(value: Double) throws {
        let parameters = try Self.parse(#"{"parameters": {"regionMissProbability": \#(value)}}"#)
        #expect(parameters.regionMissProbability == value)
    }

    @Test("osProfile given twice names both places")
    func osProfileTwice() {
        let message = Self.message(#"{"osProfile": "ios13", "parameters": {"osProfile": "ios13"}}"#)
        #expect(
            message
                == "DEVICE.json:1:52: $.parameters.osProfile: osProfile is already set at $.osProfile; "
                + "set it in one place, beside parameters or in it", "\(message)")
    }
}
