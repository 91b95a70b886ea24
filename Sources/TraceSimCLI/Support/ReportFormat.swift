/// A format a command prints its report in, spelled as `--format` takes it.
enum ReportFormat: String, Sendable {
    case text, json, jsonl, csv, markdown, html, table

    /// A command's `--format` option: the formats it accepts, in the order its help and errors
    /// list them, the first the default. Declared once per command, so the option, its help
    /// and the parsed value cannot disagree.
    struct Option: Sendable {
        /// The formats accepted; the first is the default.
        let formats: [ReportFormat]
        /// `--format` as the command's declaration lists it.
        let declared: CommandDeclaration.Option

        /// - Parameters:
        ///   - formats: the formats accepted, the default first.
        ///   - value: how help shows the value, when not as `<text|json|...>`.
        ///   - help: what each format prints.
        init(_ formats: [ReportFormat], value: String? = nil, help: String) {
            self.formats = formats
            declared = .choice("format", formats.map(\.rawValue), value: value, help: help)
        }

        /// The format asked for, or the default when `--format` is not given.
        /// - Throws: `UsageError` naming the accepted formats, for any other value.
        func parse(_ parsed: ParsedArguments) throws(UsageError) -> ReportFormat {
            let name = try parsed.choice(declared.name)
            // `choice` accepts only the declared names, which are these formats' names.
            guard let format = formats.first(where: { $0.rawValue == name }) else {
                throw UsageError(
                    "--format must be \(formats.map(\.rawValue).orList), not '\(name)'", command: parsed.command)
            }
            return format
        }
    }
}

/// A command that prints a report in a format chosen by `--format`.
protocol ReportingCommand: Command {
    /// The formats its `--format` takes; its declaration lists `formats.declared`.
    static var formats: ReportFormat.Option { get }
}
