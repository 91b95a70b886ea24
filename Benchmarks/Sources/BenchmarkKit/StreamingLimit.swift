/// The machine's physical limit for a pass over bytes: reading them and adding them up, which
/// no importer or pipeline that looks at every byte can beat.
public enum StreamingLimit {
    /// Reads the file in 1 MiB chunks and sums its bytes. Returns the byte count and the sum
    /// (which the caller keeps, so the reads cannot be optimised away).
    public static func readAndSum(path: String) -> (bytes: Int, sum: UInt64)? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 64)
        defer { buffer.deallocate() }
        var total = 0
        var sum: UInt64 = 0
        while true {
            let count = read(descriptor, buffer.baseAddress, chunk)
            if count < 0 { return nil }
            if count == 0 { break }
            sum &+= self.sum(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            total += count
        }
        return (total, sum)
    }

    /// Sums bytes eight at a time: each 64-bit word is split into four 16-bit lanes of low
    /// bytes and four of high bytes, which the compiler vectorises, so memory bandwidth and not
    /// arithmetic is the bound. Lanes are folded every 256 words, before they could overflow.
    public static func sum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let words = bytes.count / 8
        var sum: UInt64 = 0
        var start = 0
        while start < words {
            let end = min(start + 256, words)
            var low: UInt64 = 0
            var high: UInt64 = 0
            for index in start..<end {
                let word = bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
                low &+= word & 0x00FF_00FF_00FF_00FF
                high &+= (word >> 8) & 0x00FF_00FF_00FF_00FF
            }
            for shift in stride(from: UInt64(0), to: 64, by: 16) {
                sum &+= (low >> shift) & 0xFFFF
                sum &+= (high >> shift) & 0xFFFF
            }
            start = end
        }
        for index in (words * 8)..<bytes.count { sum &+= UInt64(bytes[index]) }
        return sum
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
