import Engine
import Foundation
import Scenarios
import TraceSimCoreLocation

extension EngineUnderTest {
    /// An app written against the Core Location facade: `makeApp` runs at every launch of the
    /// app's process (see `CoreLocationApp`), and the run is measured on what the app object
    /// records when it adopts `RecordingApp`, else on everything the phone handed it.
    public static func coreLocationApp(named name: String, _ makeApp: @escaping @Sendable () -> AnyObject)
        -> EngineUnderTest
    {
        .custom(named: name) { _ in CoreLocationApp(makeApp: makeApp) }
    }
}

extension TraceSimCommandLine {
    /// The whole command line for an app written against Core Location (through the
    /// `CoreLocationShim` import): `replay`, `matrix` and `check` replay the object
    /// `makeApp` creates at every launch, named after the program.
    ///
    ///     // main.swift of a package that depends on TraceSim
    ///     import TraceSimCLI
    ///     TraceSimCommandLine.main(app: { LocationTracker() })
    public static func main(app makeApp: @escaping @Sendable () -> AnyObject) -> Never {
        let program = CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "app"
        main(engine: .coreLocationApp(named: program, makeApp))
    }
}
