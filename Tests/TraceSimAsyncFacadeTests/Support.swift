import Device
import Engine
import Foundation
import Scenarios
import SimulationCore
import TestSupport
import Testing
import TraceSimCoreLocation
import Traces

/// The bundled u-blox drive, the trace the replay suites share.
let drive: Trace = {
    let path = Repository.trace("gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea")
    do { return try TraceImporter.load(path: path) } catch { fatalError("bundled trace: \(error)") }
}()

func preset(_ name: String) throws -> Scenario { try #require(Scenario.preset(named: name)) }

/// Seconds since the drive's first fix.
func seconds(_ instant: SimInstant) -> Double { instant.seconds(since: drive.fixes[0].timestamp) }

func seconds(_ date: Date) -> Double { date.timeIntervalSince1970 - drive.fixes[0].timestamp.secondsSinceEpoch }

/// Runs `body` on a thread of its own and hands back its result. A replay whose app runs
/// Swift tasks blocks its thread while those tasks run; on a thread of Swift's shared pool
/// (where tests run) that would take a thread the tasks need.
func onOwnThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = 8 << 20
        // Tasks the app starts take their priority from this thread: above the test runner's
        // own, so a pool busy with the rest of the suite still runs them promptly.
        thread.qualityOfService = .userInteractive
        thread.start()
    }
}

/// Where the tests' app tasks run: `Task(executorPreference: appTasks) { … }`.
///
/// Swift Testing runs tests on Swift's shared cooperative pool, two threads on a two-core
/// machine. In a full parallel run those threads are busy with other suites' synchronous
/// replays, so a plain `Task {}` an app starts can wait for a thread far longer than the
/// host's bound on the lock-step (the run then records the timeout diagnostic). A serial
/// dispatch queue is outside that pool. The command line has no such contention: its replays
/// run on dispatch's worker threads and leave the pool to the app's tasks.
let appTasks = SerialTaskExecutor()

final class SerialTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "app tasks")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

/// A collector app objects write into from whatever thread their code runs on.
final class Log<Entry: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Entry] = []

    func append(_ entry: Entry) { lock.withLock { storage.append(entry) } }
    var entries: [Entry] { lock.withLock { storage } }
}

/// What a replay left behind that the tests compare.
struct ReplayOutcome: Sendable {
    var deliveryTimes: [SimInstant]
    var lifecycle: [LifecycleChange]
    var prompts: [PromptLogEntry]
    var diagnostics: [ClientDiagnostic]
}

/// Replays the drive through `scenario` with an app whose launch runs `makeApp`.
func replayApp(_ scenario: Scenario, makeApp: @escaping () -> AnyObject) -> ReplayOutcome {
    let played = ScenarioRunner.replay(drive, scenario, client: CoreLocationApp(makeApp: makeApp))
    return ReplayOutcome(
        deliveryTimes: played.replay.deliveryTimes, lifecycle: played.lifecycle,
        prompts: played.replay.device.promptLog, diagnostics: played.replay.client.diagnostics)
}

/// The reference app: written against `LocationClient` directly, it starts standard updates
/// with `options` when it launches and keeps everything the phone hands it.
struct ReferenceClient: LocationClient {
    var options: LocationUpdateOptions?
    var startsMotion = false
    var deliveries: [LocationDelivery] = []
    var motion: [(sample: MotionSample, at: SimInstant)] = []

    mutating func start(
        _ launch: LocationClientLaunch, at now: SimInstant, into requests: inout [LocationClientRequest<Never>]
    ) {
        if let options { requests.append(.device(.startedLocationUpdates(options))) }
        if startsMotion { requests.append(.device(.startedMotionUpdates)) }
    }

    mutating func didUpdateLocations(
        _ locations: [LocationDelivery], at now: SimInstant, into requests: inout [LocationClientRequest<Never>]
    ) {
        deliveries += locations
    }

    mutating func didUpdateMotionActivity(
        _ sample: MotionSample, at now: SimInstant, into requests: inout [LocationClientRequest<Never>]
    ) {
        motion.append((sample, now))
    }

    func finish(at now: SimInstant) {}
}
