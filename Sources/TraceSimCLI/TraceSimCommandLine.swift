import Traces
/// placeholder during bring-up
public enum TraceSimCommandLine {
    public static func run(_ arguments: [String]) -> Int32 {
        for path in arguments {
            do {
                let trace = try TraceImporter.load(path: path)
                print(path, trace.provenance.format.rawValue, trace.fixes.count, trace.diagnostics)
            } catch {
                print("error: \(error)")
            }
        }
        return 0
    }
}
