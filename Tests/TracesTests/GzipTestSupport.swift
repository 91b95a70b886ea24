import CZlib
import Foundation

/// Makes gzip streams in tests with zlib itself, so no test depends on a `gzip` binary.
enum GzipTestSupport {
    /// `bytes` repeated `repeating` times, as one gzip member.
    static func gzip(
        _ bytes: [UInt8], repeating: Int = 1, level: Int32 = 6, strategy: Int32 = Z_DEFAULT_STRATEGY
    ) -> [UInt8] {
        var stream = z_stream()
        guard tracesim_deflate_init_gzip(&stream, level, strategy) == Z_OK else { return [] }
        defer { deflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var input = bytes
        for round in 0..<repeating {
            let flush = round == repeating - 1 ? Z_FINISH : Z_NO_FLUSH
            input.withUnsafeMutableBufferPointer { inputBuffer in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = uInt(inputBuffer.count)
                var status = Z_OK
                repeat {
                    chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                        stream.next_out = chunkBuffer.baseAddress
                        stream.avail_out = uInt(chunkBuffer.count)
                        status = deflate(&stream, flush)
                        output.append(contentsOf: chunkBuffer[0..<(chunkBuffer.count - Int(stream.avail_out))])
                    }
                } while stream.avail_out == 0 || (flush == Z_FINISH && status != Z_STREAM_END)
            }
        }
        return output
    }

    static func gzip(_ text: String) -> [UInt8] { gzip(Array(text.utf8)) }

    /// A GPX 1.1 track of `count` points a second apart.
    static func gpx(count: Int) -> String {
        var text =
            #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
            + #"<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"# + "\n"
        for index in 0..<count {
            text +=
                #"<trkpt lat="\#(48.0 + Double(index) * 0.0001)" lon="11.5"><time>\#(time(index))</time></trkpt>"#
                + "\n"
        }
        return text + "</trkseg></trk></gpx>\n"
    }

    /// NMEA RMC sentences, one epoch a second.
    static func nmea(count: Int) -> String {
        (0..<count).map { index in
            let seconds = String(format: "%02d%02d%02d.00", 12, index / 60, index % 60)
            let minutes = String(format: "%07.4f", 7.0 + Double(index) * 0.001)
            return nmeaSentence("GPRMC,\(seconds),A,48\(minutes),N,01131.000,E,022.4,084.4,230394,003.1,W,A") + "\r\n"
        }.joined()
    }

    /// TraceSim CSV.
    static func csv(count: Int) -> String {
        "time,lat,lon\n" + (0..<count).map { "\(time($0)),\(48.0 + Double($0) * 0.0001),11.5\n" }.joined()
    }

    /// JSON Lines.
    static func jsonLines(count: Int) -> String {
        (0..<count).map { #"{"time":"\#(time($0))","lat":\#(48.0 + Double($0) * 0.0001),"lon":11.5}"# + "\n" }
            .joined()
    }

    private static func time(_ index: Int) -> String {
        String(format: "2020-01-01T12:%02d:%02dZ", index / 60, index % 60)
    }

    private static func nmeaSentence(_ body: String) -> String {
        let checksum = body.utf8.reduce(UInt8(0), ^)
        return "$" + body + "*" + String(format: "%02X", checksum)
    }
}
