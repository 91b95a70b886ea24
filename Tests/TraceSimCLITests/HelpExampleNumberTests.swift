import Testing

@testable import TraceSimCLI

/// Examples in help and numbers in advice are written as the number grammar spells them.
@Suite("Numbers in help and advice")
struct HelpExampleNumberTests {
    @Test("the --noise help example is accepted as written")
    func noiseExample() throws {
        let help = NoiseArguments.declared.help
        let example = try #require(help.range(of: "Example: "))
        let words = help[example.upperBound...].split(separator: " ").map(String.init)
        #expect(words.first == "--noise")
        let parsed = try ParsedArguments(words, declaration: MatrixCommand.declaration)
        #expect(parsed.values("noise") == ["phone", "jumps:rate=2"])
        #expect(throws: Never.self) { try NoiseArguments.noise(parsed, command: "matrix") }
    }

    @Test("a rate is written as the grammar spells it", arguments: [(1e-9, "1e-9"), (2.5e-7, "2.5e-7"), (0.5, "0.5"), (1e20, "1e20")])
    func decimal(value: Double, text: String) {
        #expect(TraceLoading.decimal(value) == text)
    }
}
