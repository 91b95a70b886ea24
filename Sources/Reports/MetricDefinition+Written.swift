import Scenarios

extension MetricDefinition {
    /// The metric's value in `metrics` as the run JSON writes it: counts whole, absent values
    /// `null`, rejections as an object keyed by reason.
    func json(in metrics: Metrics) -> JSONText {
        switch field {
        case .count(let path): .integer(metrics[keyPath: path])
        case .number(let path): .number(metrics[keyPath: path])
        case .optionalNumber(let path): metrics[keyPath: path].map { .number($0) } ?? .null
        case .countsByReason: .object(metrics.rejectedByReason.map { ($0.reason, .integer($0.count)) })
        case .pooledOnly: .null
        }
    }

    /// Rounds the metric's value in `metrics` to `writtenDigits`, as the run JSON writes it.
    func roundAsWritten(_ metrics: inout Metrics) {
        guard let digits = writtenDigits else { return }
        switch field {
        case .number(let path): metrics[keyPath: path] = Formatting.rounded(metrics[keyPath: path], digits)
        case .optionalNumber(let path):
            metrics[keyPath: path] = metrics[keyPath: path].map { Formatting.rounded($0, digits) }
        case .count, .countsByReason, .pooledOnly: break
        }
    }
}
