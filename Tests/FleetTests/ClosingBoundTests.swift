import Fleet
import Testing

/// The closing record's line bound follows from what `matrix` writes, and a crafted header of
/// many inputs cannot raise it past what a header may take.
@Suite("Closing record bound")
struct ClosingBoundTests {
    @Test("per input: a reason of 1,024 bytes escaped at most twice over, and 64 bytes of number and keys")
    func derivation() {
        #expect(RunLines.maximumClosingBytes(headerBytes: 1_000, inputs: 2) == (64 << 10) + 1_000 + 2 * 2_112)
        #expect(RunLines.maximumClosingBytes(headerBytes: 0, inputs: 0) == 64 << 10)
    }

    @Test("a 40 MB header of a million inputs allows 256 MiB, not gigabytes")
    func ceiling() {
        #expect(RunLines.maximumClosingBytes(headerBytes: 40 << 20, inputs: 1_000_000) == RunLines.maximumHeaderBytes)
        #expect(
            RunLines.maximumClosingBytes(headerBytes: RunLines.maximumHeaderBytes, inputs: 1 << 24)
                == 256 << 20)
    }
}
