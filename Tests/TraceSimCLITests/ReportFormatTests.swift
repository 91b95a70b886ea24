import Testing

@testable import TraceSimCLI

/// `--format` is declared through one type: its choices, its default and its errors are the
/// same for every command that prints a report.
@Suite("report formats")
struct ReportFormatTests {
    static let reporting = TraceSimCommandLine.commands.compactMap { $0 as? any ReportingCommand.Type }

    @Test("every command with --format declares it through its formats, and the ten commands do")
    func everyFormatOptionIsDeclaredOnce() throws {
        var names: Set<String> = []
        for command in Self.reporting { names.insert(command.declaration.name) }
        #expect(
            names == [
                "calibrate", "inspect", "matrix", "permissions", "replay", "rules", "scenarios", "summarize", "track",
                "tune",
            ])
        for command in TraceSimCommandLine.commands {
            let name = command.declaration.name
            let declared = command.declaration.option(named: "format")
            guard let reporting = command as? any ReportingCommand.Type else {
                #expect(declared == nil, "\(name) declares --format without its formats")
                continue
            }
            let formats = reporting.formats
            #expect(declared?.choices == formats.formats.map(\.rawValue), "\(name)")
            #expect(declared?.help == formats.declared.help, "\(name)")
        }
    }

    @Test("each accepted format parses to itself, the first is the default, and any other is refused as before")
    func parsing() throws {
        for command in Self.reporting {
            let name = command.declaration.name
            let formats = command.formats
            for format in formats.formats {
                let parsed = try ParsedArguments(["--format", format.rawValue], declaration: command.declaration)
                #expect(try formats.parse(parsed) == format)
            }
            #expect(try formats.parse(ParsedArguments([], declaration: command.declaration)) == formats.formats[0])
            let bogus = try ParsedArguments(["--format", "yaml"], declaration: command.declaration)
            let names = formats.formats.map(\.rawValue).orList
            #expect(throws: UsageError("--format must be \(names), not 'yaml'", command: name)) {
                try formats.parse(bogus)
            }
        }
    }
}
