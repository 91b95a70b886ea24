/// The version of TraceSim this code is: printed by `tracesim --version` and written into a
/// sharded matrix's run identity, so parts from different versions are never merged.
public enum TraceSimVersion {
    public static let current = "0.1.0"
}
