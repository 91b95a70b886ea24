extension Tuning {
    /// One sweep: a parameter and the values it takes.
    public struct Sweep: Sendable {
        public var parameter: Parameter
        /// Its values, in order.
        public var values: [SettingValue]

        /// Parses `name=from:to:step` (numbers; `to` included when the steps land on it) or
        /// `name=v1,v2,...` (numbers, `true`/`false`, or the setting's words).
        public static func parse(_ text: String) -> Result<Sweep, SweepError> {
            let pieces = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard pieces.count == 2, !pieces[0].isEmpty, !pieces[1].isEmpty else {
                return .failure(SweepError("'\(text)' is not name=from:to:step or name=v1,v2,..."))
            }
            guard let parameter = Tuning.parameter(named: pieces[0]) else {
                return .failure(
                    SweepError(
                        "unknown parameter '\(pieces[0])' (one of: \(parameters.map(\.name).joined(separator: ", ")))"))
            }
            let values: [SettingValue]
            if pieces[1].contains(":") {
                guard case .number = parameter.kind else {
                    return .failure(SweepError("\(parameter.name) is not a number: list its values as v1,v2"))
                }
                switch range(pieces[1], text) {
                case .success(let numbers): values = numbers.map(SettingValue.number)
                case .failure(let error): return .failure(error)
                }
            } else {
                let items = pieces[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                guard items.count <= maximumValues else {
                    return .failure(SweepError("'\(parameter.name)' has more than \(maximumValues) values"))
                }
                var listed: [SettingValue] = []
                for item in items {
                    guard let value = value(item, for: parameter) else {
                        return .failure(
                            SweepError("'\(item)' is not a value of \(parameter.name) (\(describe(parameter)))"))
                    }
                    listed.append(value)
                }
                values = listed
            }
            for value in values {
                if let problem = parameter.check(value) { return .failure(SweepError(problem)) }
            }
            return .success(Sweep(parameter: parameter, values: values))
        }

        private static func value(_ text: String, for parameter: Parameter) -> SettingValue? {
            switch parameter.kind {
            case .number: Double(text).flatMap { $0.isFinite ? .number($0) : nil }
            case .bool: text == "true" ? .bool(true) : text == "false" ? .bool(false) : nil
            case .tokens(let tokens): tokens.contains(text) ? .token(text) : nil
            }
        }

        /// What values a parameter takes, for messages and help.
        public static func describe(_ parameter: Parameter) -> String {
            switch parameter.kind {
            case .number(let range):
                "\(parameter.isWhole ? "whole numbers" : "numbers") \(SettingValue.number(range.lowerBound))"
                    + "…\(SettingValue.number(range.upperBound))\(parameter.unit.isEmpty ? "" : " " + parameter.unit)"
            case .bool: "true or false"
            case .tokens(let tokens): tokens.joined(separator: " | ")
            }
        }

        private static func range(_ spec: String, _ text: String) -> Result<[Double], SweepError> {
            let numbers = spec.split(separator: ":", omittingEmptySubsequences: false).map { Double($0) }
            guard numbers.count == 3, let from = numbers[0], let to = numbers[1], let step = numbers[2], from.isFinite,
                to.isFinite, step.isFinite, step > 0, from <= to
            else { return .failure(SweepError("'\(spec)' is not from:to:step with from <= to and step > 0")) }
            // Counted in floating point and compared before any conversion: a tiny step or a
            // huge span gives a count (or an infinity) no `Int` can hold.
            let steps = ((to - from) / step + 1e-9).rounded(.down)
            guard steps.isFinite, steps < Double(maximumValues) else {
                return .failure(SweepError("'\(text)' has more than \(maximumValues) values (use a larger step)"))
            }
            return .success((0...Int(steps)).map { from + Double($0) * step })
        }
    }

    /// Why a sweep, objective or constraint could not be read.
    public struct SweepError: Error, Sendable, CustomStringConvertible {
        /// The reason.
        public var description: String
        init(_ description: String) { self.description = description }
    }
}
