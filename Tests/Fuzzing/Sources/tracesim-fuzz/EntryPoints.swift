import CLibFuzzer
import Foundation

// libFuzzer's entry points. The harness to run is named by TRACESIM_FUZZ_HARNESS, so one
// instrumented binary serves every input surface (Scripts/fuzz.sh sets it per run).

/// The surface this process fuzzes, read once.
let selectedSurface: Surface = {
    let name = ProcessInfo.processInfo.environment["TRACESIM_FUZZ_HARNESS"] ?? ""
    if name == "list" {
        print(Surface.allCases.map(\.rawValue).joined(separator: "\n"))
        exit(0)
    }
    guard let surface = Surface(rawValue: name) else {
        let known = Surface.allCases.map(\.rawValue).joined(separator: " ")
        FileHandle.standardError.write(Data("set TRACESIM_FUZZ_HARNESS to one of: \(known)\n".utf8))
        exit(64)
    }
    if let folder = ProcessInfo.processInfo.environment["TRACESIM_FUZZ_WRITE_SEEDS"] {
        CommandLineChecks.writeSeeds(for: surface, to: URL(fileURLWithPath: folder))
        exit(0)
    }
    return surface
}()

/// The process's entry: SwiftPM links `main` to `<target>_main` for executables, so this
/// hands the command line to libFuzzer's driver rather than relying on libFuzzer's `main`.
@_cdecl("tracesim_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in fuzzerTestOneInput(data, size) }
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    _ = selectedSurface
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    selectedSurface.exercise(bytes)
    return 0
}
