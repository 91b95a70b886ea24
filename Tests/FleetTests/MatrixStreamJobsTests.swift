import Fleet
import Scenarios
import Testing

/// `Matrix.stream` takes any number of jobs from an embedding caller without overflowing the
/// window of inputs it lets run ahead.
@Suite("Matrix streaming jobs")
struct MatrixStreamJobsTests {
    @Test("jobs up to Int.max stream the same runs as one job", arguments: [1 << 62, Int.max])
    func hugeJobs(jobs: Int) throws {
        let matrix = try MatrixStreamTests.matrix(["always-precise", "denied"])
        let one = try MatrixStreamTests.observe(matrix, jobs: 1, inputs: 3)
        let many = try MatrixStreamTests.observe(matrix, jobs: jobs, inputs: 3)
        #expect(many.emitted == [0, 1, 2])
        #expect(many.cells == one.cells)
    }
}
