/// Which positioning source produced a fix.
///
/// Android's GnssLogger labels each `Fix` record (`GPS`, `FLP`, `NLP`); dedicated receivers
/// (NMEA, Garmin, loggers, dash cams) are satellite-only and read as `gps`. Core Location
/// blends satellites, Wi-Fi and cells, so CLLocation dumps read as `fused`. Formats that do
/// not say read as `unknown` rather than guessing.
public enum Provider: UInt8, CaseIterable, Sendable, Comparable {
    /// The position is unknown-sourced: the file does not say.
    case unknown
    /// A satellite (GNSS) receiver.
    case gps
    /// A fused provider (Android FLP, Core Location).
    case fused
    /// A network provider (Wi-Fi or cell towers; Android NLP).
    case network

    /// The lower-case token used in every TraceSim file and report.
    public var name: String {
        switch self {
        case .unknown: "unknown"
        case .gps: "gps"
        case .fused: "fused"
        case .network: "network"
        }
    }

    /// Reads a canonical token back. Returns `nil` for an unknown token.
    public init?(name: some StringProtocol) {
        switch name {
        case "unknown": self = .unknown
        case "gps": self = .gps
        case "fused": self = .fused
        case "network": self = .network
        default: return nil
        }
    }

    /// Reads a canonical token from UTF-8 bytes without building a string.
    public init?(bytes: UnsafeBufferPointer<UInt8>) {
        // Decided by length and first letter, confirmed in full: this runs once per row.
        switch (bytes.count, bytes.first) {
        case (3, UInt8(ascii: "g")?) where bytes.equals("gps"): self = .gps
        case (5, UInt8(ascii: "f")?) where bytes.equals("fused"): self = .fused
        case (7, UInt8(ascii: "n")?) where bytes.equals("network"): self = .network
        case (7, UInt8(ascii: "u")?) where bytes.equals("unknown"): self = .unknown
        default: return nil
        }
    }

    /// Orders by declaration (or by time), for stable output.
    public static func < (lhs: Provider, rhs: Provider) -> Bool { lhs.rawValue < rhs.rawValue }
}
