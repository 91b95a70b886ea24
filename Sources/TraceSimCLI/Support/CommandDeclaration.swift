/// What a command accepts, declared once: the parser, the USAGE line, the ARGUMENTS and
/// OPTIONS sections of `--help` and the choice errors all come from it, so the help cannot
/// list an option the parser refuses or leave out one it accepts.
///
/// Free text (the overview, a discussion, the exit status) stays written by hand per command.
struct CommandDeclaration: Sendable {
    /// The command's name, as typed after `tracesim`.
    var name: String
    /// The `OVERVIEW:` paragraph, without the label.
    var overview: String
    var positionals: [Positional] = []
    /// The command's own options, in the order help lists them; `--quiet` and `--help` follow.
    var options: [Option] = []
    /// What `--quiet` silences for this command, when it is more than `Option.quiet` says.
    var quietHelp: String = Option.quietHelp
    /// Hand-written synopses, for a command whose forms one generated line cannot tell apart
    /// (`permissions`). Every option they name must be declared; the help test checks it.
    var synopses: [String]? = nil
    /// Paragraphs after the OPTIONS section.
    var discussion: String? = nil
    /// The `EXIT STATUS:` paragraph, without the label.
    var exitStatus: String? = nil
    /// Options of other commands that this one deliberately does not take, each with why and
    /// what to use instead: the parser says that rather than "unknown option".
    var refusedOptions: [RefusedOption] = []

    /// An option another command takes and this one refuses.
    struct RefusedOption: Sendable {
        /// Without the dashes.
        var name: String
        /// Why, and what to use instead: the rest of the usage error after the option.
        var reason: String
    }

    /// A positional argument.
    struct Positional: Sendable {
        /// `<trace>`.
        var label: String
        var help: String
        /// Whether several may be given (`<trace> ...` in the usage line).
        var isRepeated = false
    }

    /// An option, `--name` with or without a value.
    struct Option: Sendable {
        /// Without the dashes.
        var name: String
        /// `<file>` for an option that takes a value; `nil` for a flag. For an option with
        /// `choices`, `nil` shows them as `<a|b|c>`.
        var value: String?
        var help: String
        /// The only values accepted, in the order help and errors list them. The first is
        /// the default.
        var choices: [String] = []
        /// How the usage line shows the value, when not as `value` or the choices.
        var usageValue: String? = nil
        /// Shown in the usage line without brackets; the command itself checks it was given, to
        /// say what it is for.
        var isRequired = false
        /// Whether it may be given more than once, each value kept (`--sweep`); any other
        /// valued option given twice is a usage error.
        var isRepeatable = false

        /// A flag.
        static func flag(_ name: String, help: String) -> Option {
            Option(name: name, value: nil, help: help)
        }

        /// An option taking one of `choices`.
        static func choice(_ name: String, _ choices: [String], value: String? = nil, help: String) -> Option {
            Option(name: name, value: value ?? "<\(choices.joined(separator: "|"))>", help: help, choices: choices)
        }

        var takesValue: Bool { value != nil }

        static let quietHelp = """
            Print no notes and no progress bar on standard error. Warnings
            (what the output lost or merged) and errors are still printed.
            """
        static let help = Option.flag("help", help: "Show this help.")
    }

    /// Every option the parser accepts: the command's own, `--quiet` and `--help`.
    var acceptedOptions: [Option] {
        options + [Option.flag("quiet", help: quietHelp), Option.help]
    }

    func option(named name: String) -> Option? { acceptedOptions.first { $0.name == name } }

    func refusedOption(named name: String) -> RefusedOption? { refusedOptions.first { $0.name == name } }

    // MARK: Help

    /// The whole `--help` text.
    var help: String {
        var sections = ["OVERVIEW: \(overview)", usageSection]
        if !positionals.isEmpty {
            sections.append(
                "ARGUMENTS:\n" + positionals.map { Self.entry($0.label, $0.help) }.joined(separator: "\n"))
        }
        sections.append(
            "OPTIONS:\n"
                + acceptedOptions.map { Self.entry(Self.label($0), $0.help) }.joined(separator: "\n"))
        if let discussion { sections.append(discussion) }
        if let exitStatus { sections.append("EXIT STATUS:\n" + Self.indent(exitStatus, by: 2)) }
        return sections.joined(separator: "\n\n")
    }

    /// `-h, --help` or `--name <value>`.
    private static func label(_ option: Option) -> String {
        if option.name == "help" { return "-h, --help" }
        return "--\(option.name)" + (option.value.map { " \($0)" } ?? "")
    }

    /// The column help text starts at, as in swift-argument-parser.
    private static let helpColumn = 26
    /// How wide a generated usage line may grow before it wraps.
    private static let usageWidth = 100

    /// A label and its help, the help starting at `helpColumn` (on the next line when the
    /// label reaches it).
    private static func entry(_ label: String, _ help: String) -> String {
        let head = "  " + label
        let body = indent(help, by: helpColumn)
        guard head.count < helpColumn else { return head + "\n" + body }
        return head + String(repeating: " ", count: helpColumn - head.count) + body.dropFirst(helpColumn)
    }

    private static func indent(_ text: String, by width: Int) -> String {
        let pad = String(repeating: " ", count: width)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { pad + $0 }.joined(
            separator: "\n")
    }

    private var usageSection: String {
        if let synopses {
            let pad = String(repeating: " ", count: "USAGE: ".count)
            return "USAGE: " + synopses.joined(separator: "\n").replacingOccurrences(of: "\n", with: "\n" + pad)
        }
        let head = "USAGE: tracesim \(name)"
        var tokens = positionals.map { $0.isRepeated ? "\($0.label) ..." : $0.label }
        for option in options {
            var token = "--\(option.name)"
            if let value = option.usageValue
                ?? (option.choices.isEmpty ? option.value : option.choices.joined(separator: "|"))
            {
                token += " \(value)"
            }
            tokens.append(option.isRequired ? token : "[\(token)]")
            if option.isRepeatable { tokens.append("[--\(option.name) ...]") }
        }
        var lines: [String] = []
        var line = head
        for token in tokens {
            if line.count + 1 + token.count > Self.usageWidth, line.count > head.count {
                lines.append(line)
                line = String(repeating: " ", count: head.count)
            }
            line += " " + token
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}

extension Array where Element == String {
    /// `a, b or c`: a list of choices as messages word it.
    var orList: String {
        guard count > 1 else { return first ?? "" }
        return dropLast().joined(separator: ", ") + " or " + self[count - 1]
    }
}
