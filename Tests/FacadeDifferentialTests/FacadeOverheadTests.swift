import Foundation
import Scenarios
import Testing

/// The facade's cost: the whole matrix over every bundled trace, the built-in engine direct and
/// through `FacadeEngineAdapter`, three runs each, medians. Opt-in (it measures wall time, which
/// only means something in a release build):
///
///     TRACESIM_FACADE_BENCHMARK=1 swift test -c release --filter FacadeOverheadTests
@Suite("Facade overhead", .enabled(if: ProcessInfo.processInfo.environment["TRACESIM_FACADE_BENCHMARK"] == "1"))
struct FacadeOverheadTests {
    @Test("the matrix's wall time through the facade, per delivered fix")
    func overhead() throws {
        let arguments = ["matrix"] + FacadeDifferentialTests.traces + ["--date", "2020-02-07", "--format", "json"]
        let clock = ContinuousClock()
        // Wall time, and the process's CPU time, which a machine shared with other work
        // inflates less.
        func cpuSeconds() -> Double {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        }
        func measure(_ engine: EngineUnderTest) -> (seconds: [Double], cpu: [Double], output: String) {
            var seconds: [Double] = []
            var cpu: [Double] = []
            var output = ""
            for _ in 0..<3 {
                let start = clock.now
                let startCPU = cpuSeconds()
                output = run(arguments, engine: engine).output
                cpu.append(cpuSeconds() - startCPU)
                let elapsed = clock.now - start
                seconds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            }
            return (seconds.sorted(), cpu.sorted(), output)
        }
        let direct = measure(.builtIn)
        let facade = measure(FacadeDifferentialTests.throughFacade)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(direct.output.utf8)) as? [String: Any])
        let runs = try #require(object["runs"] as? [[String: Any]])
        let delivered = runs.compactMap { ($0["metrics"] as? [String: Any])?["deliveredFixes"] as? Int }.reduce(0, +)
        #expect(delivered > 0)
        let overhead = (facade.seconds[1] - direct.seconds[1]) / Double(delivered) * 1e9
        let cpuOverhead = (facade.cpu[1] - direct.cpu[1]) / Double(delivered) * 1e9
        print(
            """
            facade overhead: \(runs.count) runs, \(delivered) delivered fixes; \
            built-in \(direct.seconds.map { String(format: "%.3f", $0) }) s, \
            facade \(facade.seconds.map { String(format: "%.3f", $0) }) s; \
            medians \(String(format: "%.3f", direct.seconds[1])) s vs \(String(format: "%.3f", facade.seconds[1])) s, \
            \(String(format: "%.0f", overhead)) ns per delivered fix; CPU medians \
            \(String(format: "%.3f", direct.cpu[1])) s vs \(String(format: "%.3f", facade.cpu[1])) s, \
            \(String(format: "%.0f", cpuOverhead)) ns of CPU per delivered fix
            """)
    }
}
