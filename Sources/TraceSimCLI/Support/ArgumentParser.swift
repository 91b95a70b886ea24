/// A small hand-rolled parser with swift-argument-parser's manners: `--name value` and
/// `--name=value`, `--` ends options, unknown options get the nearest known spelling.
struct ParsedArguments {
    /// Positional arguments in order.
    var positionals: [String] = []
    /// Option values by name (without dashes); flags map to "true".
    var options: [String: String] = [:]

    /// Every value of an option given more than once, in order.
    var repeated: [String: [String]] = [:]

    /// The value of an option, if given (the last one for a repeatable option).
    func value(_ name: String) -> String? { options[name] }

    /// Every value given for an option, in order.
    func values(_ name: String) -> [String] { repeated[name] ?? [] }

    mutating func record(_ name: String, _ value: String) {
        options[name] = value
        repeated[name, default: []].append(value)
    }

    /// Whether a flag was given.
    func flag(_ name: String) -> Bool { options[name] != nil }
}

/// What a command accepts.
struct ArgumentSpec {
    /// Options that take a value.
    var valued: Set<String>
    /// Options that take none.
    var flags: Set<String> = ["help", "quiet"]

    /// The only valued options that may be given more than once, and what repeating them means:
    /// `--sweep` (tune) adds a setting to cross. Any other valued option given twice is a usage
    /// error, since taking the last silently drops what the user wrote first.
    static let repeatable: Set<String> = ["sweep"]

    /// Parses `arguments` for `command`.
    /// - Throws: `UsageError` for an unknown option or a missing value.
    func parse(_ arguments: [String], command: String) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "-h" {
                parsed.options["help"] = "true"
                continue
            }
            guard argument.hasPrefix("--") else {
                throw UsageError("unknown option '\(argument)'\(suggestion(for: argument))", command: command)
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if flags.contains(name) {
                guard inlineValue == nil else {
                    throw UsageError("option '--\(name)' takes no value", command: command)
                }
                parsed.options[name] = "true"
            } else if valued.contains(name) {
                if parsed.options[name] != nil && !Self.repeatable.contains(name) {
                    throw UsageError("option '--\(name)' is given more than once", command: command)
                }
                if let inlineValue {
                    parsed.record(name, inlineValue)
                } else {
                    guard index < arguments.count else {
                        throw UsageError("option '--\(name)' needs a value", command: command)
                    }
                    parsed.record(name, arguments[index])
                    index += 1
                }
            } else {
                throw UsageError("unknown option '--\(name)'\(suggestion(for: name))", command: command)
            }
        }
        return parsed
    }

    private func suggestion(for typed: String) -> String {
        let bare = typed.drop { $0 == "-" }
        let candidates = valued.union(flags).sorted()
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
