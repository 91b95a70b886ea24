@_spi(Fuzzing) import EngineProtocol
import Scenarios
import Testing
import Traces

/// The in-process seam the fuzzing harnesses drive: lines in memory through the same reader
/// and client state as a process's.
@Suite("Engine protocol harness")
struct EngineProtocolHarnessTests {
    @Test("the built-in engine's answers, replayed from memory, record what the built-in engine records")
    func scriptedAnswersReplayTheRun() throws {
        let trace = SubprocessEngineTests.pixel6
        let scenario = try #require(Scenario.preset(named: "always-force-quit"))
        let transcript = EngineProtocolHarness.transcript(of: trace, scenario)
        let direct = try ScenarioRunner.run(trace, scenario)
        for pieceBytes in [1, 7, 4_096] {
            let scripted = EngineProtocolHarness.scriptedEngine(output: transcript.fromEngine, pieceBytes: pieceBytes)
            let run = try ScenarioRunner.run(trace, scenario, engine: scripted, traceName: "transcript")
            #expect(run.recorder.acceptedTimes == direct.recorder.acceptedTimes)
            #expect(run.recorder.recordedIndices == direct.recorder.recordedIndices)
            #expect(run.recorder.motionTransitions == direct.recorder.motionTransitions)
            #expect(run.odometerMeters == direct.odometerMeters)
        }
        #expect(direct.recorder.acceptedFixCount > 0)
    }

    @Test("the serving side answers TraceSim's recorded lines with the engine's recorded lines")
    func servingSideAnswersTheTranscript() throws {
        let scenario = try #require(Scenario.preset(named: "always-precise"))
        let transcript = EngineProtocolHarness.transcript(of: SubprocessEngineTests.pixel6, scenario)
        let (answers, refusal) = EngineProtocolHarness.serve(transcript.toEngine)
        #expect(refusal == nil)
        #expect((answers.joined(separator: "\n") + "\n") == String(decoding: transcript.fromEngine, as: UTF8.self))
        #expect(answers.allSatisfy(EngineProtocolHarness.isMessage))
    }

    @Test("the serving side refuses a hello naming another version, saying which it expects and answers in")
    func servingSideRefusesAnotherHelloVersion() {
        let hello = Array(#"{"type":"hello","protocolVersion":2}"#.utf8) + [0x0A]
        let (answers, refusal) = EngineProtocolHarness.serve(hello)
        #expect(answers.isEmpty)
        #expect(
            refusal
                == "TraceSim's hello names protocol version 2; this engine expects 1, as every TraceSim's hello names, "
                + "and answers in version 2")
    }

    @Test("an engine's output cut short fails the run, naming where")
    func truncatedOutputFails() throws {
        let scenario = try #require(Scenario.preset(named: "always-precise"))
        let transcript = EngineProtocolHarness.transcript(of: SubprocessEngineTests.pixel6, scenario)
        let cut = Array(transcript.fromEngine.prefix(transcript.fromEngine.count / 2))
        let lines = cut.filter { $0 == 0x0A }.count
        let engine = EngineProtocolHarness.scriptedEngine(output: cut, pieceBytes: 13)
        #expect(throws: RunFailure.self) {
            try ScenarioRunner.run(SubprocessEngineTests.pixel6, scenario, engine: engine, traceName: "t")
        }
        do {
            _ = try ScenarioRunner.run(SubprocessEngineTests.pixel6, scenario, engine: engine, traceName: "t")
        } catch {
            #expect("\(error)".contains("after output line \(lines): it exited with status 0"), "\(error)")
        }
    }
}
