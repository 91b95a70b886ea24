import Device
import Engine
import Foundation
import Scenarios
import SimulationCore
import Testing
import TraceSimCoreLocation
import Traces

/// When-In-Use without location updates: locked at 60 s (suspended after the grace), back
/// in the foreground at 300 s.
private func lockedThenReopened() throws -> Scenario {
    var scenario = try preset("wheninuse-locked")
    scenario.timeline = [
        .init(.seconds(60), .user(.lockedScreen)), .init(.seconds(300), .user(.unlockedScreen)),
        .init(.seconds(300), .user(.movedAppToForeground)),
    ]
    return scenario
}

/// An app that runs a repeating 30 s timer from its launch, invalidated by its seventh firing.
private final class TimerApp {
    let launchedAt = AppClock.now
    let firings = Log<Double>()
    let fireDates = Log<Double>()
    var timer: Timer?

    init() {
        timer = AppClock.scheduledTimer(withTimeInterval: 30, repeats: true) { [firings, fireDates] timer in
            firings.append(seconds(AppClock.now))
            fireDates.append(seconds(timer.fireDate))
            if firings.entries.count == 7 { timer.invalidate() }
        }
    }
}

@Suite("AppClock", .serialized)
struct AppClockTests {
    @Test("AppClock.now in the app's launch is the instant tracking starts")
    func nowAtLaunchIsTheVirtualInstant() throws {
        let launched = Log<Date>()
        _ = replayApp(try preset("always-precise")) {
            launched.append(AppClock.now)
            return NSObject()
        }
        #expect(launched.entries == [Date(timeIntervalSince1970: drive.fixes[0].timestamp.secondsSinceEpoch)])
    }

    @Test("outside a replay AppClock.now is the wall clock")
    func nowOutsideAReplayIsTheWallClock() {
        let before = Date()
        let now = AppClock.now
        #expect(now >= before && now <= Date())
    }

    @Test("a repeating timer fires on its virtual schedule, not while suspended, once at the resume, then on schedule")
    func timerFiresInVirtualTimeAndNotWhileSuspended() throws {
        var app: TimerApp?
        let outcome = replayApp(try lockedThenReopened()) {
            let made = TimerApp()
            app = made
            return made
        }
        let timerApp = try #require(app)
        #expect(seconds(timerApp.launchedAt) == 0)
        // Suspended a few seconds after the lock at 60 s, in the foreground again at 300 s.
        let suspended = try #require(outcome.lifecycle.first { $0.phase == .suspended })
        #expect(seconds(suspended.time) > 60 && seconds(suspended.time) < 90)
        #expect(outcome.lifecycle.contains { $0.phase == .foreground && seconds($0.time) == 300 })
        // 30 and 60 on schedule; 90…270 fell due while suspended: one firing at the resume;
        // then 330, 360, 390 on the original schedule; invalidated by the seventh.
        #expect(timerApp.firings.entries == [30, 60, 300, 330, 360, 390, 420])
        #expect(timerApp.timer?.isValid == false)
        // Inside its block a timer's fire date reads the virtual instant it came due.
        #expect(timerApp.fireDates.entries == [30, 60, 90, 330, 360, 390, 420])
    }

    @Test("asyncAfter runs its work once, at the virtual instant it was due")
    func asyncAfterRunsAtTheVirtualInstant() throws {
        let ran = Log<Double>()
        _ = replayApp(try preset("always-precise")) {
            AppClock.asyncAfter(seconds: 12.5) { ran.append(seconds(AppClock.now)) }
            return NSObject()
        }
        #expect(ran.entries == [12.5])
    }

    @Test("a task's sleeps end at virtual instants, and what it asks for then happens before the replay moves on")
    func sleepIsVirtualAndLockStep() async throws {
        let scenario = try preset("always-precise")
        let result: (woke: [Double], firstDelivery: Double?) = await onOwnThread {
            let woke = Log<Double>()
            let outcome = replayApp(scenario) {
                Task(executorPreference: appTasks) {
                    for _ in 0..<3 {
                        try await AppClock.sleep(for: .seconds(10))
                        woke.append(seconds(AppClock.now))
                    }
                    // Starting updates from the task at 30 s: the first delivery is the 30 s fix.
                    SimulationHost.current?.perform(.startedLocationUpdates(backgroundUpdates))
                }
                return NSObject()
            }
            return (woke.entries, outcome.deliveryTimes.first.map(seconds))
        }
        #expect(result.woke == [10, 20, 30])
        #expect(result.firstDelivery == 30)
    }

    @Test("sleeping twice in two runs gives the same instants (determinism)")
    func sleepIsDeterministic() async throws {
        let scenario = try preset("always-precise")
        let runs: [[Double]] = await onOwnThread {
            (0..<2).map { _ in
                let woke = Log<Double>()
                _ = replayApp(scenario) {
                    for offset in [0.5, 1.25] {
                        Task(executorPreference: appTasks) {
                            for _ in 0..<20 {
                                try await AppClock.sleep(seconds: 7 + offset)
                                woke.append((seconds(AppClock.now) * 1000).rounded() / 1000)
                            }
                        }
                    }
                    return NSObject()
                }
                return woke.entries
            }
        }
        // Always without location updates: suspended after the lock at 60 s, so the sleeps
        // that fall due later never end.
        #expect(runs[0] == [7.5, 8.25, 15, 16.5, 22.5, 24.75, 30, 33, 37.5, 41.25, 45, 49.5, 52.5, 57.75, 60])
        #expect(runs[0] == runs[1])
    }

    @Test("a task that waits on something the replay does not drive is noted, and the run still ends")
    func stalledTaskIsADiagnostic() async throws {
        let scenario = try preset("always-precise")
        let diagnostics: [ClientDiagnostic] = await onOwnThread {
            replayApp(scenario) {
                SimulationHost.current?.tasks.timeoutSeconds = 0.2
                Task(executorPreference: appTasks) { try await Task.sleep(for: .seconds(1)) }
                return NSObject()
            }.diagnostics
        }
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.message.hasPrefix("a task the app started neither finished nor waited") == true)
        #expect(diagnostics.first.map { seconds($0.firstTime) } == 0)
    }
}
