import Foundation
import SimulationCore
import TestSupport
import Testing

@testable import Traces

/// The plain scanner must give a handler exactly what libxml2 gives it, or give up: these
/// tests run both readers over the same documents and compare every event.
@Suite("XML plain scanner")
struct XMLPlainScannerTests {
    /// A handler that writes down every event, with the attribute values the importers read.
    struct Recorder<Vocabulary: RecordedVocabulary>: XMLTraceHandler {
        static var elementNames: [String] { Vocabulary.elementNames }
        static var namespaceURIs: [String] { Vocabulary.namespaceURIs }
        var events: [String] = []

        mutating func didStart(_ code: Int, namespace: Int, attributes: XMLAttributes, line: Int) {
            let values = ["lat", "lon", "version", "Sport", "xmlns", "id"].map { name in
                attributes.value(Self.staticName(name)).map { String(decoding: $0, as: UTF8.self) } ?? "-"
            }
            events.append("start \(Self.elementNames[code]) ns=\(namespace) line=\(line) \(values)")
        }

        mutating func didEnd(_ code: Int, namespace: Int, text: UnsafeBufferPointer<UInt8>, line: Int) {
            let text = String(decoding: text, as: UTF8.self)
            events.append("end \(Self.elementNames[code]) ns=\(namespace) line=\(line) text=\(text.debugDescription)")
        }

        private static func staticName(_ name: String) -> StaticString {
            switch name {
            case "lat": "lat"
            case "lon": "lon"
            case "version": "version"
            case "Sport": "Sport"
            case "xmlns": "xmlns"
            default: "id"
            }
        }
    }

    enum GPXWords: RecordedVocabulary {
        static var elementNames: [String] { GPXImporter.elementNames }
        static var namespaceURIs: [String] { GPXImporter.namespaceURIs }
    }

    enum TCXWords: RecordedVocabulary {
        static var elementNames: [String] { TCXImporter.elementNames }
        static var namespaceURIs: [String] { TCXImporter.namespaceURIs }
    }

    enum KMLWords: RecordedVocabulary {
        static var elementNames: [String] { KMLImporter.elementNames }
        static var namespaceURIs: [String] { KMLImporter.namespaceURIs }
    }

    /// The plain scanner's events, or `nil` when it gave up.
    static func plainEvents<V: RecordedVocabulary>(_ bytes: [UInt8], _: V.Type) -> [String]? {
        bytes.withUnsafeBufferPointer { buffer in
            var recorder = Recorder<V>()
            let source = TextSource(file: "doc.xml", bytes: buffer)
            return XMLPlainScanner.scan(source, handler: &recorder) ? recorder.events : nil
        }
    }

    /// libxml2's events, or `nil` when it refused the document.
    static func libxmlEvents<V: RecordedVocabulary>(_ bytes: [UInt8], _: V.Type) -> [String]? {
        bytes.withUnsafeBufferPointer { buffer in
            var recorder = Recorder<V>()
            let source = TextSource(file: "doc.xml", bytes: buffer)
            do {
                try XMLEventParser.parse(source, handler: &recorder)
                return recorder.events
            } catch {
                return nil
            }
        }
    }

    /// Whether the scanner agreed with libxml2 where it did not give up.
    @discardableResult
    static func expectAgreement<V: RecordedVocabulary>(
        _ bytes: [UInt8], _ vocabulary: V.Type, expectPlain: Bool? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        let plain = plainEvents(bytes, vocabulary)
        if let expectPlain {
            #expect((plain != nil) == expectPlain, sourceLocation: sourceLocation)
        }
        guard let plain else { return false }
        let reference = libxmlEvents(bytes, vocabulary)
        #expect(reference != nil, "the scanner read a document libxml2 refuses", sourceLocation: sourceLocation)
        #expect(plain == reference, sourceLocation: sourceLocation)
        return plain == reference
    }

    static let sample = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"
             xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1" xmlns:o='other'>
          <metadata><name>walk</name></metadata>
          <trk><name>Morning</name><type>walk</type>
            <trkseg>
              <trkpt lat="37.1" lon="-122.2"><ele>12.5</ele><time>2020-02-07T10:00:00Z</time>
                <extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>1.5</gpxtpx:speed>
                </gpxtpx:TrackPointExtension><o:speed>9</o:speed><speed>2</speed></extensions>
              </trkpt>
              <trkpt lat="37.2"
                     lon="-122.3"
              ><time>2020-02-07T10:00:01Z</time><o:x a="1"/><hdop>  </hdop><fix>none</fix></trkpt>
              <trkpt lat="37.3" lon="-122.4" o:lat="5"/>
              <trkpt lat='37.4' lon='-122.5'><ele>1<o:b/>2</ele><time>x<ele>3</ele>y</time></trkpt>
            </trkseg>
          </trk>
          <wpt lat="1" lon="2"/><rte><rtept lat="1" lon="2"></rtept></rte>
        </gpx>

        """

    @Test("a GPX file of namespaces, extensions, empty and mixed elements is read as libxml2 reads it")
    func sampleAgrees() {
        Self.expectAgreement(Array(Self.sample.utf8), GPXWords.self, expectPlain: true)
    }

    @Test("every bundled GPX, TCX and KML file is read as libxml2 reads it")
    func bundledFilesAgree() throws {
        let paths = [
            FixtureFiles.fixture("logger-1.0.gpx"), FixtureFiles.fixture("garmin-1.1.gpx"),
            Repository.trace("gpsbabel/bike.tcx"), Repository.trace("gpsbabel/google_ext.kml"),
        ]
        for path in paths {
            let bytes = try FileBytes.read(path)
            if path.hasSuffix(".gpx") { Self.expectAgreement(bytes, GPXWords.self) }
            if path.hasSuffix(".tcx") { Self.expectAgreement(bytes, TCXWords.self) }
            if path.hasSuffix(".kml") { Self.expectAgreement(bytes, KMLWords.self) }
        }
    }

    @Test("TraceSim's own GPX export is read by the plain scanner, as libxml2 reads it")
    func exportAgrees() throws {
        let trace = try TraceImporter.load(path: FixtureFiles.fixture("garmin-1.1.gpx"))
        let bytes = Array(TraceExporter.gpx(trace).utf8)
        Self.expectAgreement(bytes, GPXWords.self, expectPlain: true)
    }

    @Test(
        "what is outside the subset goes to libxml2",
        arguments: [
            "<gpx><name>a &amp; b</name></gpx>", "<gpx><!-- c --></gpx>", "<!DOCTYPE gpx><gpx/>",
            "<gpx><![CDATA[x]]></gpx>", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><gpx/>",
            "<gpx>\r\n</gpx>", "<gpx><name>caf\u{E9}</name></gpx>", "<gpx a=\"x\ny\"/>", "<gpx><?pi x?></gpx>",
            "<x:gpx xmlns:x=\"\"/>", "<gpx xml:lang=\"en\"/>", "<gpx a='1' a='2'/>",
        ])
    func outsideTheSubset(document: String) {
        Self.expectAgreement(Array(document.utf8), GPXWords.self, expectPlain: false)
    }

    @Test(
        "documents that are not well-formed go to libxml2",
        arguments: [
            "<gpx>", "<gpx></trk>", "<gpx/><gpx/>", "<gpx/>x", "x<gpx/>", "<gpx a=1/>", "<gpx a=\"1\"b=\"2\"/>",
            "<gpx><a></b></gpx>", "<gpx>]]></gpx>", "<u:gpx/>", "<gpx a=\"<\"/>", "<1gpx/>", "<gpx:/>", "",
            " <?xml version=\"1.0\"?><gpx/>", "<gpx></gpx ", "<gpx/ >", "<?xml version=\"1.0\"?>",
            "<?xml version=\"1.0\"encoding=\"UTF-8\"?><gpx/>",
        ])
    func notWellFormed(document: String) {
        Self.expectAgreement(Array(document.utf8), GPXWords.self, expectPlain: false)
    }

    @Test("a deeply nested document goes to libxml2, which refuses it past its own limit")
    func deepNesting() {
        let nested = "<gpx>" + String(repeating: "<a>", count: 300) + String(repeating: "</a>", count: 300) + "</gpx>"
        Self.expectAgreement(Array(nested.utf8), GPXWords.self, expectPlain: false)
        let error = formatError(nested, name: "deep.gpx")
        #expect(error?.problem == .nestingTooDeep(limit: 256))
    }

    @Test("a GPX file cut short is reported as libxml2 reports it, with the innermost open element")
    func truncatedFile() {
        guard let cut = Self.sample.range(of: "<o:b/>") else {
            Issue.record("the sample changed")
            return
        }
        let text = String(Self.sample[..<cut.lowerBound])
        let error = formatError(text, name: "cut.gpx")
        guard case .truncated(let detail) = error?.problem else {
            Issue.record("not a truncation: \(String(describing: error))")
            return
        }
        #expect(detail.contains("the innermost <ele> from line 15"), "\(detail)")
    }

    @Test("a handler's error sends the document to libxml2, which reports it with its line")
    func handlerErrorFallsBack() {
        let text = Self.sample.replacingOccurrences(of: "lat=\"37.2\"", with: "lat=\"97.2\"")
        let error = formatError(text, name: "walk.gpx")
        #expect(error?.line == 13)
        #expect(error?.problem == .latitudeOutOfRange)
    }

    /// Damaged copies of the sample: a byte replaced, inserted or removed at a random place,
    /// a random cut. Wherever the scanner reads one, libxml2 must read it and agree.
    @Test("damaged documents: where the scanner reads one, libxml2 agrees", arguments: [1, 2, 3, 4])
    func damagedDocumentsAgree(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let original = Array(Self.sample.utf8)
        let alphabet = Array("<>/=\"' \n\tax:&!?-][;#0".utf8)
        var read = 0
        for _ in 0..<2000 {
            var bytes = original
            for _ in 0...(random.next() % 2) {
                let at = Int(random.next() % UInt64(bytes.count))
                let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
                switch random.next() % 4 {
                case 0: bytes[at] = byte
                case 1: bytes.insert(byte, at: at)
                case 2: bytes.remove(at: at)
                default: bytes.removeLast(bytes.count - at)
                }
            }
            guard !bytes.isEmpty else { continue }
            if Self.expectAgreement(bytes, GPXWords.self) { read += 1 }
        }
        // Most damage leaves a readable document (a changed space, digit or letter in text).
        #expect(read > 200)
    }
}

protocol RecordedVocabulary {
    static var elementNames: [String] { get }
    static var namespaceURIs: [String] { get }
}
