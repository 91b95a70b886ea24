import Engine
@_spi(Fuzzing) import EngineProtocol
import Scenarios
import Traces

/// The engine protocol as a fuzzing surface, in-process (`EngineProtocolHarness`): an input is
/// an engine's whole standard output (`engine`), or TraceSim's whole side of a conversation
/// for the serving side (`serve-engine`). Their seeds are a real run's two sides.
enum EngineChecks {
    static let scenario = Scenario.preset(named: "always-precise")!

    /// The fixes of the run the engine is told about: `ReplayChecks.smallTrace`.
    static let fixTimes = Set(ReplayChecks.smallTrace.fixes.map(\.timestamp))

    /// Replays the small trace with an engine that writes `bytes`, read in pieces whose size
    /// the input picks (so lines split everywhere), and checks what the run kept: whatever an
    /// engine writes, a run either fails with a one-line message or holds a record made of
    /// fixes that were delivered, on the globe, within the limits.
    static func replay(_ bytes: [UInt8]) {
        let engine = EngineProtocolHarness.scriptedEngine(output: bytes, pieceBytes: 1 + bytes.count % 61)
        let run: ScenarioRun
        do {
            run = try ScenarioRunner.run(ReplayChecks.smallTrace, scenario, engine: engine, traceName: "fuzz")
        } catch {
            let message = "\(error)"
            guard !message.isEmpty, !message.unicodeScalars.contains(where: isControl) else {
                fatalError("a failure that is not one printable line: \(message.debugDescription)")
            }
            return
        }
        let recorder = run.recorder
        // Standard deliveries, and at most one significant change per fix of the trace.
        let deliveries = run.deliveryTimes.count + ReplayChecks.smallTrace.fixes.count
        guard recorder.acceptedFixCount <= deliveries else {
            fatalError("accepted \(recorder.acceptedFixCount) fixes of at most \(deliveries) delivered")
        }
        for (time, position) in zip(recorder.acceptedTimes, recorder.acceptedPositions) {
            guard fixTimes.contains(time) else { fatalError("accepted a fix at \(time), never delivered") }
            guard (-90...90).contains(position.latitude), (-180...180).contains(position.longitude) else {
                fatalError("accepted a position off the globe")
            }
        }
        guard recorder.recordedIndices.allSatisfy({ Int($0) < recorder.acceptedFixCount }) else {
            fatalError("a recorded fix that was not accepted")
        }
        guard run.diagnostics.count <= ClientDiagnostics.maximumMessages,
            run.diagnostics.allSatisfy({ $0.message.utf8.count <= ClientDiagnostics.maximumMessageBytes })
        else { fatalError("diagnostics past their bounds: \(run.diagnostics.count) messages") }
    }

    /// Feeds `bytes` to the serving side line by line: it answers each with protocol messages
    /// or refuses it with a message, and never crashes.
    static func serve(_ bytes: [UInt8]) {
        let (answers, refusal) = EngineProtocolHarness.serve(bytes)
        for answer in answers where !EngineProtocolHarness.isMessage(answer) {
            fatalError("serve-engine answered with a line that is not a message: \(answer.debugDescription)")
        }
        if let refusal, refusal.isEmpty { fatalError("a refusal without a message") }
    }

    /// The seeds: the two sides of the small trace's run through the built-in engine, served
    /// in-process.
    static func seeds(for surface: Surface) -> [[UInt8]] {
        let transcript = EngineProtocolHarness.transcript(of: ReplayChecks.smallTrace, scenario)
        return [surface == .serveEngine ? transcript.toEngine : transcript.fromEngine]
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: true
        default: false
        }
    }
}
