import TestSupport
import Testing

@testable import TraceSimCLI

/// `--jobs` is 1 to `ReplayArguments.maximumJobs`; beyond it is a usage error that gives the
/// range, never a trap.
@Suite("--jobs bound")
struct JobsBoundTests {
    static let bike = Repository.trace("gnss_lib_py/pixel6.txt")

    @Test(
        "a --jobs beyond 1024 is refused with the range",
        arguments: ["matrix", "tune"], ["1025", "4611686018427387904", "9223372036854775807", "99999999999999999999"])
    func tooMany(command: String, value: String) {
        let result = runCommand([command, Self.bike, "--jobs", value])
        #expect(result.exitCode == 64, "\(result.error)")
        #expect(
            result.error.contains("--jobs must be a whole number from 1 to 1024, not '\(value)'"), "\(result.error)")
        #expect(!result.error.contains("at least 1"))
    }

    @Test("--jobs 1024 is accepted", arguments: [MatrixCommand.declaration, TuneCommand.declaration])
    func largest(declaration: CommandDeclaration) throws {
        let parsed = try ParsedArguments(["--jobs", "1024"], declaration: declaration)
        #expect(try ReplayArguments.jobs(parsed, command: declaration.name) == ReplayArguments.maximumJobs)
    }
}
