/// FNV-1a, 64 bits, over a file's bytes: what a sharded matrix part records of each input so
/// `Matrix.merge` can tell parts of one run from parts of another.
///
/// It is not cryptographic: it tells a changed file from an unchanged one, not a forged one
/// from a genuine one (parts are trusted as much as the traces they name). It runs at about a
/// byte per nanosecond, well under the cost of importing the same bytes.
public struct ContentHash: Equatable, Sendable {
    /// The 64-bit FNV-1a value.
    public var value: UInt64

    /// The name written before the digits, so a later change of function is visible in a part.
    public static let algorithm = "fnv1a64"

    package static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// A hash from its 64-bit value.
    public init(value: UInt64) { self.value = value }

    /// The hash of `bytes`.
    public init(_ bytes: [UInt8]) { value = Self.fold(bytes[...], into: Self.offsetBasis) }

    /// Continues a hash over more bytes, so a file can be hashed a slice at a time.
    package static func fold(_ bytes: ArraySlice<UInt8>, into start: UInt64) -> UInt64 {
        var hash = start
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* prime
        }
        return hash
    }

    /// `fnv1a64:` and sixteen lower-case hexadecimal digits.
    public var text: String {
        let digits = String(value, radix: 16)
        return Self.algorithm + ":" + String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Reads `text`'s form back; `nil` for anything else.
    public init?(text: String) {
        let prefix = Self.algorithm + ":"
        guard text.hasPrefix(prefix) else { return nil }
        let digits = text.dropFirst(prefix.count)
        guard digits.count == 16, digits.allSatisfy(\.isHexDigit), digits.lowercased() == digits,
            let value = UInt64(digits, radix: 16)
        else { return nil }
        self.value = value
    }
}
