import Device
import Geometry
import SimulationCore
import Traces

/// Replays a trace through a simulated device and the engine: the device sees every
/// recorded fix and motion sample, the engine sees only what the device delivers, and the
/// timers both ask for fire in simulated time. Deterministic: no clocks, no unordered iteration.
public struct EngineReplay {
    /// Something that happens to the device at a fixed time (the user, the system).
    public struct ScriptedEvent: Sendable, Equatable {
        /// When.
        public var time: SimInstant
        /// What.
        public var event: DeviceEvent

        /// Creates a scripted event.
        public init(time: SimInstant, event: DeviceEvent) {
            self.time = time
            self.event = event
        }
    }

    /// The device after the replay.
    public private(set) var device: Device
    /// The engine after the replay.
    public let engine: TrackingEngine
    /// Every device action, with its time, when `keepsDeviceLog` was set.
    public private(set) var deviceLog: [(time: SimInstant, action: DeviceAction)] = []
    /// The app's lifecycle as it changed: phase and screen lock, from the replay's start.
    public private(set) var lifecycleTimeline: [(time: SimInstant, phase: AppPhase, isScreenLocked: Bool)] = []
    /// When each fix reached the app (standard updates).
    public private(set) var deliveryTimes: [SimInstant] = []
    /// The person answering prompts that appear during the replay (the deferred Always
    /// upgrade, for example); `nil` leaves them on screen.
    public private(set) var user: SimulatedUser?
    private let keepsDeviceLog: Bool
    private var timers: [(time: SimInstant, sequence: Int, timer: Timer)] = []
    private var timerSequence = 0
    private var requests: [EngineRequest] = []
    /// Emptied action buffers kept for the next event. `send` runs re-entrantly (an engine
    /// request becomes a device event), so each level takes its own buffer.
    private var spareActionBuffers: [[DeviceAction]] = []
    private var wasUpdatingLocation = false

    private enum Timer {
        case device(DeviceTimer)
        case engine(EngineTimer)
        case answer(PromptAnswer)
    }

    /// Prepares a replay of `device` (fresh, or as a permission flow left it) and `engine`.
    public init(device: Device, engine: TrackingEngine, user: SimulatedUser? = nil, keepsDeviceLog: Bool = false) {
        self.device = device
        self.engine = engine
        self.user = user
        self.keepsDeviceLog = keepsDeviceLog
        requests.reserveCapacity(16)
    }

    /// Runs `trace` with `script` (sorted or not; ties keep their order), from `start` on
    /// when given (fixes before it happened before the app tracked). Unless the device already
    /// runs the app or the script launches it, the app is launched at the first instant. The
    /// engine starts as soon as the app runs.
    public mutating func run(_ trace: Trace, script: [ScriptedEvent] = [], from start: SimInstant? = nil) {
        let fixes = start.map { start in Array(trace.fixes.drop { $0.timestamp < start }) } ?? trace.fixes
        let samples =
            start.map { start in Array(trace.motionSamples.drop { $0.timestamp < start }) } ?? trace.motionSamples
        let scripted = script.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(
            \.element)
        guard
            let first = [start, fixes.first?.timestamp, samples.first?.timestamp, scripted.first?.time].compactMap({
                $0
            })
            .min()
        else { return }
        deliveryTimes.reserveCapacity(fixes.count)
        lifecycleTimeline.append((first, device.lifecycle.phase, device.lifecycle.isScreenLocked))
        wasUpdatingLocation = device.isReceiverRunning(at: first)
        if wasUpdatingLocation { engine.deviceLocationUpdatesChanged(running: true, at: first) }
        if !device.lifecycle.phase.isRunning && !scripted.contains(where: { $0.event == .user(.launchedApp) }) {
            send(.user(.launchedApp), at: first)
        }
        var engineStarted = false
        // The app starts the SDK as soon as its process first runs, before anything else is handled.
        func startEngineIfLaunched(_ replay: inout EngineReplay, at now: SimInstant) {
            guard !engineStarted, replay.device.lifecycle.phase.isRunning else { return }
            engineStarted = true
            let state = replay.device.authorization.state
            replay.engine.start(
                at: now, motionAuthorized: state.motionStatus == .authorized && state.isMotionAvailable,
                into: &replay.requests)
            replay.flushRequests(at: now)
        }
        startEngineIfLaunched(&self, at: first)
        var fixIndex = 0
        var sampleIndex = 0
        var scriptIndex = 0
        var now = first
        // Nothing is known after the trace's last instant, so timers and scripted events due
        // later (a stop timeout, a lock scripted at 60 s on a 30 s trace) do not happen.
        let last = [fixes.last?.timestamp, samples.last?.timestamp].compactMap { $0 }.max() ?? first
        while true {
            // Ties: the script, then timers, then motion, then fixes.
            var next = SimInstant(nanosecondsSinceEpoch: .max)
            if scriptIndex < scripted.count, scripted[scriptIndex].time <= last { next = scripted[scriptIndex].time }
            if let timer = timers.first, timer.time < next, timer.time <= last { next = timer.time }
            if sampleIndex < samples.count, samples[sampleIndex].timestamp < next {
                next = samples[sampleIndex].timestamp
            }
            if fixIndex < fixes.count, fixes[fixIndex].timestamp < next { next = fixes[fixIndex].timestamp }
            if next.nanosecondsSinceEpoch == .max { break }
            now = next
            if scriptIndex < scripted.count, scripted[scriptIndex].time == now {
                send(scripted[scriptIndex].event, at: now)
                scriptIndex += 1
            } else if let timer = timers.first, timer.time == now {
                timers.removeFirst()
                switch timer.timer {
                case .device(let deviceTimer): send(.system(.timerFired(deviceTimer)), at: now)
                case .answer(let answer): send(.user(.answeredPrompt(answer)), at: now)
                case .engine(let engineTimer):
                    // App timers do not run in a suspended or terminated process.
                    guard device.lifecycle.phase.isRunning else { break }
                    engine.timerFired(engineTimer, at: now, into: &requests)
                    flushRequests(at: now)
                }
            } else if sampleIndex < samples.count, samples[sampleIndex].timestamp == now {
                send(.sensor(.motionSampleRecorded(samples[sampleIndex])), at: now)
                sampleIndex += 1
            } else {
                send(.sensor(.fixRecorded(fixes[fixIndex])), at: now)
                fixIndex += 1
            }
            startEngineIfLaunched(&self, at: now)
        }
        engine.finish(at: now)
    }

    private mutating func send(_ event: DeviceEvent, at now: SimInstant) {
        var actions = spareActionBuffers.popLast() ?? []
        device.handle(event, at: now, into: &actions)
        defer {
            actions.removeAll(keepingCapacity: true)
            spareActionBuffers.append(actions)
        }
        let running = device.isReceiverRunning(at: now)
        if running != wasUpdatingLocation {
            wasUpdatingLocation = running
            engine.deviceLocationUpdatesChanged(running: running, at: now)
        }
        let lifecycle = device.lifecycle
        if let last = lifecycleTimeline.last,
            last.phase != lifecycle.phase || last.isScreenLocked != lifecycle.isScreenLocked
        {
            lifecycleTimeline.append((now, lifecycle.phase, lifecycle.isScreenLocked))
        }
        for action in actions {
            if keepsDeviceLog { deviceLog.append((now, action)) }
            switch action {
            case .schedule(let timer, let due):
                schedule(.device(timer), at: due)
            case .promptShown(let kind):
                if case .answer(let answer, let delay)? = user?.respond(to: kind) {
                    schedule(.answer(answer), at: now.advanced(bySeconds: delay))
                }
                engine.handle(action, at: now, into: &requests)
            case .deliverLocation:
                deliveryTimes.append(now)
                engine.handle(action, at: now, into: &requests)
            default:
                engine.handle(action, at: now, into: &requests)
            }
        }
        flushRequests(at: now)
    }

    /// Sends the engine's requests to the device; their deliveries may raise more requests.
    private mutating func flushRequests(at now: SimInstant) {
        while !requests.isEmpty {
            let request = requests.removeFirst()
            switch request {
            case .device(let event): send(event, at: now)
            case .schedule(let timer, let due): schedule(.engine(timer), at: due)
            }
        }
    }

    private mutating func schedule(_ timer: Timer, at due: SimInstant) {
        timerSequence += 1
        let entry = (time: due, sequence: timerSequence, timer: timer)
        let position = timers.firstIndex { ($0.time, $0.sequence) > (due, timerSequence) } ?? timers.endIndex
        timers.insert(entry, at: position)
    }
}
