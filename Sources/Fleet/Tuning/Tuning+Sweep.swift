import Scenarios
import SimulationCore

extension Tuning {
    /// The most values one sweep may take.
    public static let maximumValues = 1000

    /// The number of combinations `sweeps` cross to, or `nil` when it exceeds `limit` (counted
    /// with checked arithmetic, so any number of sweeps is safe to ask about).
    public static func combinationCount(_ sweeps: [Sweep], limit: Int) -> Int? {
        var product = 1
        for sweep in sweeps {
            let (next, overflow) = product.multipliedReportingOverflow(by: sweep.values.count)
            guard !overflow, next <= limit else { return nil }
            product = next
        }
        return product
    }

    /// One sweep: a parameter and the values it takes.
    public struct Sweep: Sendable {
        public var parameter: Parameter
        /// Its values, in order.
        public var values: [SettingValue]

        /// Parses `name=from:to:step` (numbers; `to` included when the steps land on it) or
        /// `name=v1,v2,...` (numbers, `true`/`false`, or the setting's words), `name` one of
        /// `parameters` (the built-in engine's by default; a team's engine declares its own).
        public static func parse(_ text: String, parameters: [Parameter] = Tuning.parameters) -> Result<
            Sweep, SweepError
        > {
            let pieces = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard pieces.count == 2, !pieces[0].isEmpty, !pieces[1].isEmpty else {
                return .failure(SweepError("'\(text)' is not name=from:to:step or name=v1,v2,..."))
            }
            guard let parameter = parameters.first(where: { $0.name == pieces[0] }) else {
                return .failure(
                    SweepError(
                        parameters.isEmpty
                            ? "unknown parameter '\(pieces[0])': the engine under test declares no settings of its own "
                                + "and does not take the built-in engine's"
                            : "unknown parameter '\(pieces[0])' (one of: \(parameters.map(\.name).joined(separator: ", ")))"
                    ))
            }
            let values: [SettingValue]
            if pieces[1].contains(":") {
                guard case .number = parameter.kind else {
                    return .failure(SweepError("\(parameter.name) is not a number: list its values as v1,v2"))
                }
                switch range(pieces[1], text, parameter) {
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
                        guard case .number = parameter.kind else {
                            return .failure(
                                SweepError("'\(item)' is not a value of \(parameter.name) (\(describe(parameter)))"))
                        }
                        return .failure(
                            SweepError(
                                "'\(item)' is not a decimal number (\(numberForm(parameter))): \(parameter.name) takes "
                                    + describe(parameter)))
                    }
                    listed.append(value)
                }
                values = listed
            }
            for value in values {
                if let problem = parameter.check(value) { return .failure(SweepError(problem)) }
            }
            // Each value is a row: a value given twice would only repeat a row.
            for (position, value) in values.enumerated() where values[..<position].contains(value) {
                return .failure(
                    SweepError(
                        pieces[1].contains(":")
                            ? "'\(text)' gives \(value) twice: the step is finer than the numbers can tell apart"
                            : "'\(text)' lists \(value) twice; each value is one row, so give it once"))
            }
            return .success(Sweep(parameter: parameter, values: values))
        }

        private static func value(_ text: String, for parameter: Parameter) -> SettingValue? {
            switch parameter.kind {
            case .number: number(text, for: parameter).map(SettingValue.number)
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

        /// A number of `parameter` in `DecimalNumber`'s grammar, signed only where the setting
        /// can be negative; `nil` otherwise or when it is not finite.
        private static func number(_ text: some StringProtocol, for parameter: Parameter) -> Double? {
            guard case .number(let range) = parameter.kind,
                let value = DecimalNumber.decimal(text, allowsNegative: range.lowerBound < 0), value.isFinite
            else { return nil }
            return value
        }

        /// The grammar of `parameter`'s numbers, for messages.
        private static func numberForm(_ parameter: Parameter) -> String {
            guard case .number(let range) = parameter.kind, range.lowerBound < 0 else {
                return DecimalNumber.decimalForm + "; no sign"
            }
            return DecimalNumber.decimalForm
        }

        private static func range(_ spec: String, _ text: String, _ parameter: Parameter) -> Result<
            [Double], SweepError
        > {
            let numbers = spec.split(separator: ":", omittingEmptySubsequences: false).map {
                number($0, for: parameter)
            }
            guard numbers.count == 3, let from = numbers[0], let to = numbers[1], let step = numbers[2], step > 0,
                from <= to
            else {
                return .failure(
                    SweepError(
                        "'\(spec)' is not from:to:step, three decimal numbers (\(numberForm(parameter))) "
                            + "with from <= to and step > 0"))
            }
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
