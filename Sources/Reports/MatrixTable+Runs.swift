import ConfigJSON
import Engine
import Fleet
import Scenarios
import Traces

extension MatrixTable.Row {
    /// A row from a run's JSON object as `matrix --format jsonl` writes it (one line): the
    /// values taken as written, so the tables print as the matrix printed them.
    ///
    /// Strict, since the tables are only right when every value is the one the matrix wrote: a
    /// missing or unknown key, or a value of the wrong type, is an error naming the key.
    /// - Parameters:
    ///   - bytes: the run's JSON object.
    ///   - scenarioIndex: the scenario's index in the table (where the run stands in its trace).
    ///   - file: the file errors name.
    ///   - line: the line of `file` the object is on.
    /// - Throws: `ConfigError` at `file:line`, with the column and JSON path.
    /// - Complexity: O(the object's length).
    public init(runJSON bytes: ArraySlice<UInt8>, scenarioIndex: Int, file: String, line: Int) throws(ConfigError) {
        do {
            self = try Self.read(Array(bytes), scenarioIndex: scenarioIndex, file: file)
        } catch {
            // The object was parsed alone, as line 1.
            var error = error
            error.line = line
            throw error
        }
    }

    /// Every key of a run's object; `notes`, `diagnostics`, `droppedDiagnostics`, `warnings` and
    /// `authorizationDrift` may be absent. `derivedByDevice` and `deliveries` came with schema 4,
    /// which every run read here has, so they are required.
    private static let runKeys = [
        "trace", "scenario", "seed", "flowSeconds", "metrics", "positionErrorReference", "reference", "lifecycle",
        "lifecycleSeconds", "deliveredTimes", "promptLog", "authorization", "notes", "diagnostics",
        "droppedDiagnostics", "warnings", "authorizationDrift", "derivedByDevice", "deliveries",
    ]

    /// Members the tables do not read, and the bracket each opens with.
    private static let unread: [String: UInt8] = [
        "lifecycle": UInt8(ascii: "["), "deliveredTimes": UInt8(ascii: "["), "promptLog": UInt8(ascii: "["),
        "authorization": UInt8(ascii: "["), "lifecycleSeconds": UInt8(ascii: "{"),
    ]

    private static func read(_ bytes: [UInt8], scenarioIndex: Int, file: String) throws(ConfigError) -> Self {
        let reader = ConfigReader(file: file)
        // The members the tables do not read (most of a run's bytes: every delivery time) are
        // validated by the layout pass and blanked in place before the parse, so no value is
        // built for them and every other value keeps its column.
        let layout: JSONLayout
        do {
            layout = try JSONLayout.read(bytes, file: file, splitting: "", strings: [])
        } catch {
            throw ConfigError(syntax: error)
        }
        var blanked = bytes
        for member in layout.members {
            guard let opener = unread[member.key], member.value.count > 2, bytes[member.value.lowerBound] == opener,
                bytes[member.value.upperBound - 1] == opener + 2
            else { continue }
            for offset in (member.value.lowerBound + 1)..<(member.value.upperBound - 1) {
                blanked[offset] = UInt8(ascii: " ")
            }
        }
        let root = try ConfigJSON.parse(blanked, file: file)
        let members = try reader.object(root, "$", allowed: runKeys)
        func required(_ key: String) throws(ConfigError) -> JSONNode {
            try reader.required(members, key, in: root, "$")
        }
        // Read for their types only: the tables do not show them.
        _ = try reader.number(try required("flowSeconds"), "$.flowSeconds", in: 0...Double.greatestFiniteMagnitude)
        for key in ["lifecycle", "deliveredTimes", "promptLog", "authorization"] {
            _ = try reader.array(try required(key), "$.\(key)")
        }
        _ = try reader.object(try required("lifecycleSeconds"), "$.lifecycleSeconds", allowed: nil)
        try DeliveryReport.check(
            derivedByDevice: try required("derivedByDevice"), deliveries: try required("deliveries"), reader)
        let seedNode = try required("seed")
        _ = try reader.number(seedNode, "$.seed", in: -0x1p63...0x1p63)
        // As written: a seed beyond 2^53 is not the same number once read as a Double.
        let seedText = RunLines.numberText(bytes, at: seedNode.offset)
        guard let seed = Int64(seedText) else { throw reader.fail(seedNode, "$.seed", "expected a whole number") }
        var row = Self(
            trace: try reader.string(try required("trace"), "$.trace"), scenarioIndex: scenarioIndex,
            seed: UInt64(bitPattern: seed), metrics: try metrics(try required("metrics"), reader),
            reference: try reference(try required("reference"), reader),
            diagnostics: try diagnostics(members["diagnostics"], reader),
            droppedDiagnostics: try droppedDiagnostics(members["droppedDiagnostics"], reader))
        row.notes = try notes(members["notes"], reader)
        try AuthorizationMarkReport.check(members["authorizationDrift"], reader)
        row.metrics.positionErrorReference = try positionErrorReference(
            try required("positionErrorReference"), reader)
        try checkWarnings(members["warnings"], reader)
        return row
    }

    /// `"truth"`, `"trace"` or `null`.
    private static func positionErrorReference(_ node: JSONNode, _ reader: ConfigReader) throws(ConfigError)
        -> PositionErrorReference?
    {
        if case .null = node.value { return nil }
        let path = "$.positionErrorReference"
        let text = try reader.string(node, path)
        guard let reference = PositionErrorReference(rawValue: text) else {
            throw reader.fail(
                node, path,
                "expected one of \(PositionErrorReference.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")) "
                    + "or null")
        }
        return reference
    }

    /// A run's `warnings` (`[{"code", "subject", "message"}]`), read for their shape only: the
    /// tables compute their warnings again from the metrics.
    private static func checkWarnings(_ node: JSONNode?, _ reader: ConfigReader) throws(ConfigError) {
        guard let node else { return }
        for (index, entry) in try reader.array(node, "$.warnings").enumerated() {
            let path = "$.warnings[\(index)]"
            let members = try reader.object(entry, path, allowed: ["code", "severity", "subject", "message"])
            let codeNode = try reader.required(members, "code", in: entry, path)
            guard TraceWarning.Code(rawValue: try reader.string(codeNode, "\(path).code")) != nil else {
                throw reader.fail(
                    codeNode, "\(path).code",
                    "expected one of \(TraceWarning.Code.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            _ = try reader.token(
                try reader.required(members, "severity", in: entry, path), "\(path).severity",
                [("error", true), ("warning", false)])
            for key in ["subject", "message"] {
                _ = try reader.string(try reader.required(members, key, in: entry, path), "\(path).\(key)")
            }
        }
    }

    /// The messages of a run's `notes` (`[{"message", "t"}]`), or none when absent.
    private static func notes(_ node: JSONNode?, _ reader: ConfigReader) throws(ConfigError) -> [String] {
        guard let node else { return [] }
        var result: [String] = []
        for (index, entry) in try reader.array(node, "$.notes").enumerated() {
            let path = "$.notes[\(index)]"
            let members = try reader.object(entry, path, allowed: ["message", "t"])
            _ = try reader.number(try reader.required(members, "t", in: entry, path), "\(path).t", in: anyNumber)
            result.append(
                try reader.string(try reader.required(members, "message", in: entry, path), "\(path).message"))
        }
        return result
    }

    private static let anyNumber = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude

    /// The run's numeric metrics as a saved run is read: counts, then numbers, then the numbers
    /// that may be null. The order the keys have always been checked and listed in, so an error
    /// names the same key as before.
    private static let metricsInReadOrder: [MetricDefinition] = {
        func rank(_ metric: MetricDefinition) -> Int? {
            switch metric.field {
            case .count: 0
            case .number: 1
            case .optionalNumber: 2
            case .countsByReason, .pooledOnly: nil
            }
        }
        return [0, 1, 2].flatMap { group in MetricDefinition.run.filter { rank($0) == group } }
    }()

    private static func metrics(_ node: JSONNode, _ reader: ConfigReader) throws(ConfigError) -> Metrics {
        let keys = metricsInReadOrder.map(\.name) + [MetricDefinition.rejectedByReason.name]
        let members = try reader.object(node, "$.metrics", allowed: keys)
        func required(_ key: String) throws(ConfigError) -> JSONNode {
            try reader.required(members, key, in: node, "$.metrics")
        }
        var metrics = Metrics()
        for metric in metricsInReadOrder {
            let value = try required(metric.name)
            let path = "$.metrics.\(metric.name)"
            switch metric.field {
            case .count(let field): metrics[keyPath: field] = try count(value, path, reader)
            case .number(let field): metrics[keyPath: field] = try reader.number(value, path, in: anyNumber)
            case .optionalNumber(let field):
                if case .null = value.value { continue }
                metrics[keyPath: field] = try reader.number(value, path, in: anyNumber)
            case .countsByReason, .pooledOnly: break
            }
        }
        let reasonsNode = try required("rejectedByReason")
        guard case .object(let reasons) = reasonsNode.value else {
            throw reader.fail(reasonsNode, "$.metrics.rejectedByReason", "expected an object")
        }
        _ = try reader.object(reasonsNode, "$.metrics.rejectedByReason", allowed: nil)
        for (reason, value) in reasons {
            metrics.rejectedByReason.append(
                Metrics.ReasonCount(
                    reason: reason, count: try count(value, "$.metrics.rejectedByReason.\(reason)", reader)))
        }
        return metrics
    }

    private static func reference(_ node: JSONNode, _ reader: ConfigReader) throws(ConfigError)
        -> ReferenceMetrics
    {
        let members = try reader.object(
            node, "$.reference", allowed: ["name", "maxGapSeconds", "rejectedFixes", "departed"])
        func required(_ key: String) throws(ConfigError) -> JSONNode {
            try reader.required(members, key, in: node, "$.reference")
        }
        return ReferenceMetrics(
            name: try reader.string(try required("name"), "$.reference.name"),
            maxGapSeconds: try reader.number(try required("maxGapSeconds"), "$.reference.maxGapSeconds", in: anyNumber),
            rejectedFixes: try count(try required("rejectedFixes"), "$.reference.rejectedFixes", reader),
            departed: try reader.bool(try required("departed"), "$.reference.departed"))
    }

    private static func diagnostics(_ node: JSONNode?, _ reader: ConfigReader) throws(ConfigError)
        -> [MatrixTable.DiagnosticCount]
    {
        guard let node else { return [] }
        var result: [MatrixTable.DiagnosticCount] = []
        for (index, entry) in try reader.array(node, "$.diagnostics").enumerated() {
            let path = "$.diagnostics[\(index)]"
            let members = try reader.object(entry, path, allowed: ["severity", "message", "count", "firstT"])
            func required(_ key: String) throws(ConfigError) -> JSONNode {
                try reader.required(members, key, in: entry, path)
            }
            _ = try reader.number(try required("firstT"), "\(path).firstT", in: anyNumber)
            // Written since severities came; read from the message again, so it is only checked.
            if let severity = members["severity"] {
                _ = try reader.token(
                    severity, "\(path).severity", DiagnosticSeverity.allCases.map { ($0.rawValue, $0) })
            }
            result.append(
                MatrixTable.DiagnosticCount(
                    message: try reader.string(try required("message"), "\(path).message"),
                    count: try count(try required("count"), "\(path).count", reader)))
        }
        return result
    }

    private static func droppedDiagnostics(_ node: JSONNode?, _ reader: ConfigReader) throws(ConfigError)
        -> DroppedDiagnostics
    {
        guard let node else { return DroppedDiagnostics() }
        let path = "$.droppedDiagnostics"
        let members = try reader.object(node, path, allowed: ["messages", "occurrences", "isLowerBound"])
        func required(_ key: String) throws(ConfigError) -> JSONNode {
            try reader.required(members, key, in: node, path)
        }
        return DroppedDiagnostics(
            messages: try count(try required("messages"), "\(path).messages", reader),
            occurrences: try count(try required("occurrences"), "\(path).occurrences", reader),
            isLowerBound: try members["isLowerBound"].map { node throws(ConfigError) in
                try reader.bool(node, "\(path).isLowerBound")
            } ?? false)
    }

    private static func count(_ node: JSONNode, _ path: String, _ reader: ConfigReader) throws(ConfigError)
        -> Int
    {
        let value = try reader.number(node, path, in: 0...9e15)
        guard value == value.rounded() else { throw reader.fail(node, path, "expected a whole number") }
        return Int(value)
    }
}
