import Scenarios

/// A command line parsed against a `CommandDeclaration`.
struct ParsedArguments {
    /// The command whose declaration parsed it, for errors that point to its help.
    let declaration: CommandDeclaration
    /// Positional arguments in order.
    var positionals: [String] = []
    /// Option values by name (without dashes); flags map to "true".
    private var options: [String: String] = [:]
    /// Every value of a repeatable option, in order.
    private var repeated: [String: [String]] = [:]
    /// The engine the commands that replay put under test: the built-in one, or the one the
    /// program embedding the command line was given (`TraceSimCommandLine.main(client:)`).
    var engine: EngineUnderTest = .builtIn

    var command: String { declaration.name }

    /// The value of an option, if given.
    func value(_ name: String) -> String? { options[name] }

    /// Every value given for a repeatable option, in order.
    func values(_ name: String) -> [String] { repeated[name] ?? [] }

    /// Whether a flag was given.
    func flag(_ name: String) -> Bool { options[name] != nil }

    /// The value of an option declared with choices: its first choice when absent.
    /// - Throws: `UsageError` naming the choices, for any other value.
    func choice(_ name: String) throws(UsageError) -> String {
        let choices = declaration.option(named: name)?.choices ?? []
        guard let value = options[name] else { return choices.first ?? "" }
        guard choices.contains(value) else {
            throw UsageError("--\(name) must be \(choices.orList), not '\(value)'", command: command)
        }
        return value
    }

    /// Parses `arguments` with swift-argument-parser's manners: `--name value` and
    /// `--name=value`, `--` ends options, `-` is a positional (standard input), unknown options
    /// get the nearest declared spelling.
    /// - Throws: `UsageError` for an unknown option, a missing value, a value given to a flag,
    ///   or a non-repeatable option given twice.
    init(_ arguments: [String], declaration: CommandDeclaration) throws(UsageError) {
        self.declaration = declaration
        let command = declaration.name
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "-h" {
                options["help"] = "true"
                continue
            }
            guard argument.hasPrefix("--") else {
                throw UsageError(
                    "unknown option '\(argument)'\(Self.suggestion(for: argument, declaration))", command: command)
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if let refused = declaration.refusedOption(named: name) {
                throw UsageError("\(command) does not take --\(name): \(refused.reason)", command: command)
            }
            guard let option = declaration.option(named: name) else {
                throw UsageError(
                    "unknown option '--\(name)'\(Self.suggestion(for: name, declaration))", command: command)
            }
            guard option.takesValue else {
                guard inlineValue == nil else {
                    throw UsageError("option '--\(name)' takes no value", command: command)
                }
                options[name] = "true"
                continue
            }
            if options[name] != nil && !option.isRepeatable {
                throw UsageError("option '--\(name)' is given more than once", command: command)
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else {
                    throw UsageError("option '--\(name)' needs a value", command: command)
                }
                value = arguments[index]
                index += 1
            }
            options[name] = value
            repeated[name, default: []].append(value)
        }
    }

    private static func suggestion(for typed: String, _ declaration: CommandDeclaration) -> String {
        let bare = typed.drop { $0 == "-" }
        let candidates = declaration.acceptedOptions.map(\.name).sorted()
        guard let best = candidates.min(by: { editDistance($0, bare) < editDistance($1, bare) }),
            editDistance(best, bare) <= max(2, bare.count / 3)
        else { return "" }
        return " (did you mean '--\(best)'?)"
    }
}

/// Levenshtein distance, for "did you mean" suggestions.
func editDistance(_ lhs: some StringProtocol, _ rhs: some StringProtocol) -> Int {
    let left = Array(lhs)
    let right = Array(rhs)
    if left.isEmpty { return right.count }
    if right.isEmpty { return left.count }
    var previous = Array(0...right.count)
    var current = [Int](repeating: 0, count: right.count + 1)
    for i in 1...left.count {
        current[0] = i
        for j in 1...right.count {
            let substitution = previous[j - 1] + (left[i - 1] == right[j - 1] ? 0 : 1)
            current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
        }
        swap(&previous, &current)
    }
    return previous[right.count]
}
