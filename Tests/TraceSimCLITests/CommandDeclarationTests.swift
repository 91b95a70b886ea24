import Foundation
import TestSupport
import Testing

@testable import TraceSimCLI

/// Help cannot drift from the parser: both come from each command's declaration, and these
/// tests hold the rendered help to what the parser accepts.
@Suite("command declarations")
struct CommandDeclarationTests {
    static let names = TraceSimCommandLine.commands.map { $0.declaration.name }

    /// Every `--name` in a piece of help text.
    private static func optionNames(in text: some StringProtocol) -> Set<String> {
        var names = Set<String>()
        var rest = Substring(text)
        while let range = rest.range(of: "--") {
            let name = rest[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            if let first = name.first, first.isLetter { names.insert(String(name)) }
            rest = rest[range.upperBound...]
        }
        return names
    }

    /// The lines of one section of the help (`OPTIONS:`), up to the next blank line.
    private static func section(_ title: String, of help: String) -> [Substring] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: Substring(title)) else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.isEmpty })
    }

    private static func declaration(_ name: String) throws -> CommandDeclaration {
        try #require(TraceSimCommandLine.commands.first { $0.declaration.name == name }).declaration
    }

    @Test("tracesim help X, tracesim X --help and tracesim X -h print the same text", arguments: names)
    func helpIsOneText(name: String) {
        let viaHelp = runCommand(["help", name])
        let viaFlag = runCommand([name, "--help"])
        let viaShort = runCommand([name, "-h"])
        #expect(viaHelp.exitCode == 0 && viaFlag.exitCode == 0 && viaShort.exitCode == 0)
        #expect(viaHelp.output == viaFlag.output)
        #expect(viaHelp.output == viaShort.output)
        #expect(viaHelp.output.hasPrefix("OVERVIEW: "))
    }

    @Test("every option the parser accepts is listed in OPTIONS, and only those", arguments: names)
    func optionsSectionMatchesParser(name: String) throws {
        let declaration = try Self.declaration(name)
        let help = runCommand(["help", name]).output
        // The option labels: lines of OPTIONS that start an entry.
        let listed = Set(
            Self.section("OPTIONS:", of: help).filter { $0.hasPrefix("  -") }.flatMap {
                Self.optionNames(in: $0.prefix(26))
            })
        var accepted = Set<String>()
        for option in declaration.acceptedOptions {
            let arguments = ["--\(option.name)"] + (option.takesValue ? [option.choices.first ?? "1"] : [])
            let parsed = try ParsedArguments(arguments, declaration: declaration)
            #expect(parsed.flag(option.name))
            accepted.insert(option.name)
        }
        #expect(listed == accepted)
        #expect(listed.isSuperset(of: ["help", "quiet"]))
    }

    @Test("every option the help mentions anywhere (usage, text) is one the parser accepts", arguments: names)
    func everyMentionedOptionIsAccepted(name: String) throws {
        let declaration = try Self.declaration(name)
        let help = runCommand(["help", name]).output
        // Options of other commands may be named in prose ('tracesim matrix ... --shard'); the
        // USAGE and OPTIONS sections name only this command's.
        let usage = help.split(separator: "\n\n").first { $0.hasPrefix("USAGE: ") } ?? ""
        let options = Self.section("OPTIONS:", of: help).joined(separator: "\n")
        for mentioned in Self.optionNames(in: usage).union(Self.optionNames(in: options)) {
            #expect(declaration.option(named: mentioned) != nil, "\(name) --help names --\(mentioned)")
            let result = runCommand([name, "--\(mentioned)=x"])
            #expect(!result.error.contains("unknown option"), "\(name) refuses --\(mentioned)")
        }
    }

    @Test("an option nobody declared is refused with a pointer to the command's help", arguments: names)
    func undeclaredOptionRefused(name: String) {
        let result = runCommand([name, "--no-such-option"])
        #expect(result.exitCode == 64)
        #expect(result.error == "error: unknown option '--no-such-option'\nRun 'tracesim help \(name)' for usage.\n")
    }

    @Test("a value outside an option's choices is refused in one wording, listing the choices", arguments: names)
    func choiceErrors(name: String) throws {
        let declaration = try Self.declaration(name)
        for option in declaration.acceptedOptions where !option.choices.isEmpty {
            let parsed = try ParsedArguments(["--\(option.name)", "bogus"], declaration: declaration)
            #expect(throws: UsageError("--\(option.name) must be \(option.choices.orList), not 'bogus'", command: name)) {
                try parsed.choice(option.name)
            }
            let absent = try ParsedArguments([], declaration: declaration)
            #expect(try absent.choice(option.name) == option.choices[0])
        }
    }

    @Test("the choice wording matches what the commands always said")
    func choiceWording() {
        let result = runCommand(["rules", "--format", "yaml"])
        #expect(result.exitCode == 64)
        #expect(result.error.hasPrefix("error: --format must be text, json or markdown, not 'yaml'\n"))
        let track = runCommand(["track", Repository.trace("gnss_lib_py/pixel6.txt"), "--smoothing", "x"])
        #expect(track.error.hasPrefix("error: --smoothing must be pass-through, adjust or conservative, not 'x'\n"))
    }

    @Test("a non-repeatable option given twice is refused; --sweep may repeat")
    func repetition() throws {
        let tune = try Self.declaration("tune")
        let parsed = try ParsedArguments(["--sweep", "a", "--sweep", "b"], declaration: tune)
        #expect(parsed.values("sweep") == ["a", "b"])
        #expect(throws: UsageError("option '--format' is given more than once", command: "tune")) {
            try ParsedArguments(["--format", "json", "--format", "text"], declaration: tune)
        }
    }
}
