import Foundation
import TestSupport
import Testing

@testable import TraceSimCLI

/// The Indexed Job's `podFailurePolicy` fails the Job at once on every exit code that another
/// attempt on the same shard would repeat.
@Suite("Kubernetes Indexed Job")
struct KubernetesManifestTests {
    @Test("FailJob lists usage, bad input, missing input and engine failure")
    func failsAtOnceOnRepeatableCodes() throws {
        let manifest = try String(
            contentsOf: Repository.root.appendingPathComponent("Integrations/kubernetes/indexed-job.yaml"), encoding: .utf8)
        let lines = manifest.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let failJob = try #require(lines.firstIndex(of: "- action: FailJob"))
        let values = try #require(lines[failJob...].first { $0.hasPrefix("values: [") })
        let codes = values.dropFirst("values: [".count).dropLast().split(separator: ",").compactMap {
            Int32($0.trimmingCharacters(in: .whitespaces))
        }
        let repeatable: [ExitCode] = [.usage, .dataError, .noInput, .engineFailed]
        #expect(codes == repeatable.map(\.rawValue), "\(values)")
    }
}
