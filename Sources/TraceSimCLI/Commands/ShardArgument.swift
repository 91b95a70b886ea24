import Scenarios

extension Shard {
    /// `--shard K/N`.
    init(_ text: String, command: String) throws(UsageError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
            (1...count).contains(index)
        else {
            throw UsageError("--shard must be K/N with 1 <= K <= N, not '\(text)'", command: command)
        }
        guard let shard = Shard(index: index, count: count) else {
            throw UsageError(
                "--shard: at most \(Self.maximumCount) shards, not \(count) ('tracesim merge' reads no more)",
                command: command)
        }
        self = shard
    }
}
