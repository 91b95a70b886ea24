import Fleet
import Scenarios
import SimulationCore

extension Shard {
    /// `--shard K/N`: two whole numbers in `DecimalNumber`'s grammar, so `+1/4` and `01/04` are
    /// refused as ` 1/4` is.
    init(_ text: String, command: String) throws(UsageError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        // Digits too many for any count: the shard limit is what they break.
        if parts.count == 2, DecimalNumber.whole(parts[0]) != nil, DecimalNumber.whole(parts[1]) == nil,
            DecimalNumber.decimal(parts[1], allowsNegative: false) != nil,
            parts[1].utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        {
            throw UsageError(
                "--shard: at most \(Self.maximumCount) shards, not \(MessageText.value(String(parts[1]))) "
                    + "('tracesim merge' reads no more)", command: command)
        }
        guard parts.count == 2, let index = DecimalNumber.whole(parts[0]), let count = DecimalNumber.whole(parts[1]),
            count >= 1, (1...count).contains(index)
        else {
            throw UsageError(
                "--shard must be K/N, two whole numbers (\(DecimalNumber.wholeForm)) with 1 <= K <= N, "
                    + "not '\(MessageText.value(text))'", command: command)
        }
        guard count <= UInt64(Self.maximumCount), let shard = Shard(index: Int(index), count: Int(count)) else {
            throw UsageError(
                "--shard: at most \(Self.maximumCount) shards, not \(count) ('tracesim merge' reads no more)",
                command: command)
        }
        self = shard
    }
}
