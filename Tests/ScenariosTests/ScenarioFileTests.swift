import ConfigJSON
import Device
import Engine
import Foundation
import Scenarios
import TestSupport
import Testing
import Traces

@Suite("Scenario files")
struct ScenarioFileTests {
    static let example = Repository.root.appendingPathComponent("Documentation/Examples/scenario.json")

    private func parse(_ text: String) throws(ConfigError) -> ScenarioFile.Parsed {
        try ScenarioFile.parse(Array(text.utf8), file: "s.json")
    }

    private func message(_ text: String) -> String {
        do {
            _ = try parse(text)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test("device.parameters in a scenario file sets the OS profile, the relaunch overrides and the switches")
    func deviceParameters() throws {
        let scenario = try parse(
            #"{"name": "n", "summary": "s", "device": {"osProfile": "ios18", "parameters": {"regionRelaunchAfterForceQuit": false, "significantChangeRelaunchAfterForceQuit": "profile", "lowPowerMode": true, "memoryPressureKillsPerHour": 2}}}"#
        ).scenario
        let parameters = scenario.device.parameters
        #expect(parameters.osProfile == .ios18)
        #expect(parameters.regionRelaunchAfterForceQuit == false && parameters.significantChangeRelaunchAfterForceQuit == nil)
        #expect(!parameters.relaunchesAfterForceQuit(for: .regionEvent))
        #expect(parameters.relaunchesAfterForceQuit(for: .significantChange))
        #expect(parameters.lowPowerMode && parameters.memoryPressureKillsPerHour == 2)
        #expect(
            message(#"{"name": "n", "summary": "s", "device": {"parameters": {"lowPowerMode": 1}}}"#)
                .contains("$.device.parameters.lowPowerMode"))
    }

    @Test("the documented example reads every section")
    func example() throws {
        let bytes = try Array(Data(contentsOf: Self.example))
        let parsed = try ScenarioFile.parse(bytes, file: "scenario.json")
        let scenario = parsed.scenario
        #expect(scenario.name == "courier-night-shift")
        #expect(scenario.device.authorization.storedStatus == .authorizedWhenInUse)
        #expect(scenario.timeline == [.init(.seconds(60), .user(.lockedScreen)), .init(.fraction(0.5), .user(.forceQuitApp))])
        #expect(scenario.engine.locationOptions.allowsBackgroundLocationUpdates == false)
        #expect(scenario.engine.motion.stopTimeoutSeconds == 300)
        #expect(scenario.engine.gate.maximumAccuracyMeters == 100)
        #expect(scenario.seed == 7)
        #expect(scenario.device.parameters.osProfile == .ios26)
        #expect(scenario.device.parameters.regionRelaunchAfterForceQuit == nil)
        #expect(parsed.geofences == "fences.geojson")
        guard case .fixed = scenario.authorization else {
            Issue.record("expected fixed authorization")
            return
        }
    }

    @Test("a permission flow with its own user, settings changes in the timeline, the Radar rule")
    func flowAndSettings() throws {
        let parsed = try parse(
            """
            {"name": "wizard_run", "authorization": {"flow": "wizard", "user": {"answers": [{"prompt": "location", "answer": "dontAllow"}]}},
             "timeline": [{"atFraction": 1, "event": "locationServicesOff"}], "engine": {"stopRule": "radar", "elasticity": "mauron85"}}
            """)
        guard case .flow(let layer) = parsed.scenario.authorization else {
            Issue.record("expected a flow")
            return
        }
        #expect(layer == .wizard)
        #expect(parsed.scenario.engine.motion.stopRule == .radarDefault)
        #expect(parsed.scenario.engine.distanceFilter.elasticity == .mauron85)
        #expect(parsed.scenario.timeline.first?.when == .fraction(1))
    }

    @Test("the flow's person's lifecycle moves happen in the replay at their times, after the scenario's own")
    func personMovesJoinTheTimeline() throws {
        let parsed = try parse(
            #"""
            {"name": "quits", "timeline": [{"at": 100, "event": "lock"}],
             "authorization": {"flow": "bggeo", "user": {"lifecycle": [{"at": 100, "event": "forceQuit"}]}}}
            """#)
        #expect(
            parsed.scenario.timeline == [
                Scenario.TimelineEvent(.seconds(100), .user(.lockedScreen)),
                Scenario.TimelineEvent(.seconds(100), .user(.forceQuitApp)),
            ])
        let bike = Self.example.appendingPathComponent("../../../Traces/gpsbabel/bike.tcx").standardized.path
        let run = try ScenarioRunner.run(try TraceImporter.load(path: bike), parsed.scenario)
        let quit = run.lifecycle.first { $0.phase == .forceQuit }
        #expect(quit.map { $0.time.seconds(since: run.traceStart) } == 100)
    }

    @Test("the engine's countermeasures and automatic pause: off by default, set by the engine section")
    func countermeasures() throws {
        let parsed = try parse(
            """
            {"name": "keep_alive", "engine": {"preventSuspend": true, "heartbeatInterval": 60,
             "pausesLocationUpdatesAutomatically": false}}
            """)
        #expect(parsed.scenario.engine.preventSuspend)
        #expect(parsed.scenario.engine.heartbeatIntervalSeconds == 60)
        #expect(!parsed.scenario.engine.locationOptions.pausesLocationUpdatesAutomatically)
        let defaults = try parse("{\"name\": \"plain\"}").scenario.engine
        #expect(!defaults.preventSuspend && defaults.heartbeatIntervalSeconds == nil)
        #expect(defaults.locationOptions.pausesLocationUpdatesAutomatically)
    }

    @Test(
        "bad input names the file, line, column and JSON path",
        arguments: [
            ("", "s.json"),
            ("{\"name\": \"a\", \"timeline\": [", "s.json:1"),
            ("[]", "expected an object"),
            ("{\"type\": \"FeatureCollection\", \"features\": []}", "unknown key"),
            ("{\"summary\": \"no name\"}", "missing required key 'name'"),
            ("{\"name\": \"has space\"}", "$.name"),
            ("{\"name\": \"a\", \"seed\": -1}", "$.seed"),
            ("{\"name\": \"a\", \"timeline\": [{\"at\": 5, \"event\": \"dance\"}]}", "$.timeline[0].event"),
            ("{\"name\": \"a\", \"timeline\": [{\"event\": \"lock\"}]}", "exactly one of 'at'"),
            ("{\"name\": \"a\", \"timeline\": [{\"atFraction\": 1.5, \"event\": \"lock\"}]}", "$.timeline[0].atFraction"),
            ("{\"name\": \"a\", \"authorization\": {\"flow\": \"magic\"}}", "$.authorization.flow"),
            ("{\"name\": \"a\", \"authorization\": \"granted\"}", "$.authorization"),
            ("{\"name\": \"a\", \"device\": {\"authorization\": {\"location\": \"yes\"}}}", "$.device.authorization.location"),
            ("{\"name\": \"a\", \"engine\": {\"gate\": {\"horizontalAccuracy\": 0}}}", "$.engine.gate.horizontalAccuracy"),
            ("{\"name\": \"a\", \"engine\": {\"turbo\": true}}", "$.engine.turbo"),
            ("{\"name\": \"a\", \"engine\": {\"heartbeatInterval\": 0}}", "$.engine.heartbeatInterval"),
            ("{\"name\": \"a\", \"engine\": {\"preventSuspend\": 1}}", "$.engine.preventSuspend"),
            ("{\"name\": \"a\", \"name\": \"b\"}", "appears twice"),
            ("\u{00}binary", "s.json"),
            (String(repeating: "{\"a\":", count: 5000), "s.json"),
        ])
    func badInput(text: String, expected: String) {
        let rendered = message(text)
        #expect(rendered != "no error")
        #expect(rendered.contains(expected), "\(rendered)")
        #expect(rendered.hasPrefix("s.json"), "\(rendered)")
    }

    @Test("a scenario file runs like a preset: same phone and timeline, same result")
    func fileMatchesPreset() throws {
        let parsed = try parse(
            """
            {"name": "wheninuse-locked", "device": {"authorization": {"location": "authorizedWhenInUse", "motion": "authorized"}},
             "timeline": [{"at": 60, "event": "lock"}], "engine": {"backgroundUpdates": false}}
            """)
        let trace = try TraceImporter.load(
            path: Self.example.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Traces/gpsbabel/bike.tcx").path)
        let fromFile = try ScenarioRunner.run(trace, parsed.scenario)
        let fromPreset = try ScenarioRunner.run(trace, try #require(Scenario.preset(named: "wheninuse-locked")))
        #expect(fromFile.deliveryTimes == fromPreset.deliveryTimes)
        #expect(!fromFile.deliveryTimes.isEmpty)
    }

    @Test("the settings the engine had but scenario files lacked: odometer, moving region, motion, geofencing")
    func engineSettingsAddedForTuning() throws {
        let engine = try parse(
            """
            {"name": "tuned", "engine": {"odometerAccuracy": 5, "movingRegionRefresh": 250,
             "requestsMotionActivity": false,
             "geofencing": {"proximityRadius": 2000, "maximumRegistered": 5, "rerankInterval": 30,
                            "initialTriggerEntry": false}}}
            """
        ).scenario.engine
        #expect(engine.odometerAccuracyThresholdMeters == 5)
        #expect(engine.movingRegionRefreshMeters == 250)
        #expect(!engine.requestsMotionActivity)
        #expect(engine.geofencing.proximityRadiusMeters == 2000 && engine.geofencing.maximumRegisteredFences == 5)
        #expect(engine.geofencing.rerankIntervalSeconds == 30 && !engine.geofencing.initialTriggerEntry)
    }

    @Test(
        "bad engine settings name the file, line, column and JSON path",
        arguments: [
            (
                "{\"name\": \"x\", \"engine\": {\"geofencing\": {\"maximumRegistered\": 21}}}",
                "s.json:1:62: $.engine.geofencing.maximumRegistered: must be between 1 and 20, not 21"
            ),
            (
                "{\"name\": \"x\", \"engine\": {\"geofencing\": {\"maximumRegistered\": 2.5}}}",
                "$.engine.geofencing.maximumRegistered: must be a whole number, not 2.5"
            ),
            (
                "{\"name\": \"x\", \"engine\": {\"geofencing\": {\"radius\": 1}}}",
                "$.engine.geofencing.radius: unknown key (expected one of: proximityRadius, maximumRegistered, "
                    + "rerankInterval, initialTriggerEntry)"
            ),
            ("{\"name\": \"x\", \"engine\": {\"geofencing\": 3}}", "$.engine.geofencing: expected an object"),
            ("{\"name\": \"x\", \"engine\": {\"odometerAccuracy\": \"5\"}}", "$.engine.odometerAccuracy: expected a number"),
            (
                "{\"name\": \"x\", \"engine\": {\"requestsMotionActivity\": 1}}",
                "$.engine.requestsMotionActivity: expected true or false"
            ),
            (
                "{\"name\": \"x\", \"engine\": {\"movingRegionRefresh\": 0}}",
                "$.engine.movingRegionRefresh: must be between 1 and 100000, not 0"
            ),
        ])
    func badEngineSettings(_ text: String, _ expected: String) {
        #expect(message(text).contains(expected), "\(message(text))")
    }

    @Test("every tuning parameter is a key a scenario file reads back as the value it was given")
    func everyParameterReadsBack() throws {
        for parameter in Tuning.parameters {
            let value: String
            let expected: Tuning.SettingValue
            switch parameter.kind {
            case .number(let range):
                expected = .number(range.lowerBound + 1)
                value = expected.description
            case .bool:
                let current = parameter.value(in: EngineConfiguration()) ?? .bool(false)
                expected = .bool(current != .bool(true))
                value = expected.description
            case .tokens(let tokens):
                expected = .token(tokens[tokens.count - 1])
                value = "\"\(expected.description)\""
            }
            let path = parameter.keyPath
            let object = path.count == 1 ? "{\"\(path[0])\": \(value)}" : "{\"\(path[0])\": {\"\(path[1])\": \(value)}}"
            let engine = try parse("{\"name\": \"x\", \"engine\": \(object)}").scenario.engine
            #expect(parameter.value(in: engine) == expected, "\(parameter.name)")
        }
    }
}
