import Testing

@testable import TraceSimCLI

/// `--jobs` is 1 to `ReplayArguments.maximumJobs`; beyond it is a usage error that gives the
/// range, never a trap.
@Suite("--jobs bound")
struct JobsBoundTests {
    static let bike = tracePath("gnss_lib_py/pixel6.txt")

    @Test(
        "a --jobs beyond 1024 is refused with the range",
        arguments: ["1025", "4611686018427387904", "9223372036854775807", "99999999999999999999"])
    func tooMany(value: String) {
        for command in ["matrix", "tune"] {
            let result = runCommand([command, Self.bike, "--jobs", value])
            #expect(result.exitCode == 64, "\(command) \(value): \(result.error)")
            #expect(
                result.error.contains("--jobs must be a whole number from 1 to 1024, not '\(value)'"),
                "\(command) \(value): \(result.error)")
            #expect(!result.error.contains("at least 1"))
        }
    }

    @Test("--jobs 1024 is accepted")
    func largest() throws {
        for declaration in [MatrixCommand.declaration, TuneCommand.declaration] {
            let parsed = try ParsedArguments(["--jobs", "1024"], declaration: declaration)
            #expect(try ReplayArguments.jobs(parsed, command: declaration.name) == ReplayArguments.maximumJobs)
        }
    }
}
