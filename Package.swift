// swift-tools-version:6.0
// TraceSim: replays recorded GPS traces through a simulated iPhone and a tracking engine.
// Only the toolchain and Debian's C libraries: no outside Swift packages (see README).

import PackageDescription

let package = Package(
    name: "TraceSim",
    products: [
        .executable(name: "tracesim", targets: ["TraceSimTool"]),
        // Everything below in one import, for programs that embed TraceSim (Examples/).
        .library(name: "TraceSim", targets: ["TraceSim"]),
        .library(name: "Traces", targets: ["Traces"]),
        .library(name: "ConfigJSON", targets: ["ConfigJSON"]),
        .library(name: "Device", targets: ["Device"]),
        .library(name: "TraceSimCLI", targets: ["TraceSimCLI"]),
        // A team's own Core Location code, replayed through the simulated iPhone: the facade
        // (TraceSimCoreLocation) anywhere, or Apple's framework where it exists (the shim).
        .library(name: "TraceSimCoreLocation", targets: ["TraceSimCoreLocation"]),
        .library(name: "CoreLocationShim", targets: ["CoreLocationShim"]),
        // Core Motion's activity manager the same way: the facade, and the shim that picks.
        .library(name: "TraceSimCoreMotion", targets: ["TraceSimCoreMotion"]),
        .library(name: "CoreMotionShim", targets: ["CoreMotionShim"]),
        // An engine in any language, run as a subprocess over the lock-step JSON Lines protocol
        // (Documentation/Protocol/EngineProtocol.md).
        .library(name: "EngineProtocol", targets: ["EngineProtocol"]),
        // The benchmark package (Benchmarks/) and the fuzzing package (Tests/Fuzzing/) drive
        // these stages directly.
        .library(name: "SimulationCore", targets: ["SimulationCore"]),
        .library(name: "Permissions", targets: ["Permissions"]),
        .library(name: "Geometry", targets: ["Geometry"]),
        .library(name: "Engine", targets: ["Engine"]),
        .library(name: "Scenarios", targets: ["Scenarios"]),
        .library(name: "Fleet", targets: ["Fleet"]),
        .library(name: "Reports", targets: ["Reports"]),
    ],
    targets: [
        // libgeos's C API. GEOS is the geometric authority for geofences.
        .systemLibrary(
            name: "CGEOS",
            pkgConfig: "geos",
            providers: [.apt(["libgeos-dev"]), .brew(["geos"])]
        ),
        // libxml2's SAX2 push parser: the streaming reader behind GPX, TCX and KML.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        // zlib's inflate: traces compressed with gzip are read without a separate step.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .target(name: "SimulationCore"),
        .target(name: "Traces", dependencies: ["SimulationCore", "CLibXML2", "CZlib"]),
        // Configuration files: built on Traces' hardened JSON scanner, reporting `ConfigError`.
        .target(name: "ConfigJSON", dependencies: ["Traces"]),
        .target(name: "Geometry", dependencies: ["SimulationCore", "CGEOS"]),
        .target(name: "Device", dependencies: ["SimulationCore", "Traces", "Geometry"]),
        .target(name: "Permissions", dependencies: ["Device", "SimulationCore", "Traces", "ConfigJSON"]),
        .target(name: "Engine", dependencies: ["SimulationCore", "Traces", "Geometry", "Device", "ConfigJSON"]),
        .target(
            name: "Scenarios",
            dependencies: ["SimulationCore", "Traces", "ConfigJSON", "Geometry", "Device", "Permissions", "Engine"]
        ),
        // Many traces at once: the streaming matrix, its parts on disk (run lines, part identity,
        // the closing record), merging them, and parameter sweeps.
        .target(
            name: "Fleet",
            dependencies: ["SimulationCore", "Traces", "ConfigJSON", "Geometry", "Device", "Engine", "Scenarios"]
        ),
        // Every report: text, JSON, CSV, Markdown, JUnit and HTML+SVG, for the CLI and for embedders.
        .target(
            name: "Reports",
            dependencies: [
                "SimulationCore", "Traces", "ConfigJSON", "Geometry", "Device", "Permissions", "Engine", "Scenarios",
                "Fleet",
            ]
        ),
        // What app code under the facade reads and schedules without `AppClock` (the wall clock,
        // run-loop timers, the main queue), caught by the executable on Linux (see its header).
        .target(name: "CWallClock", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // The Core Location facade: CLLocationManager and its types over `LocationClient`.
        .target(
            name: "TraceSimCoreLocation",
            dependencies: ["SimulationCore", "Traces", "Geometry", "Device", "Engine", "CWallClock"]
        ),
        // The subprocess engine: the protocol's messages, the engine process pool, and the
        // `RecordingClient` that speaks to one process per run.
        .target(
            name: "EngineProtocol",
            dependencies: ["SimulationCore", "Traces", "ConfigJSON", "Geometry", "Device", "Engine", "Scenarios"]
        ),
        // What a team's code imports: Apple's CoreLocation on Apple platforms, the facade
        // elsewhere (or anywhere with -DTRACESIM_FACADE).
        .target(name: "CoreLocationShim", dependencies: ["TraceSimCoreLocation"]),
        // The Core Motion facade: CMMotionActivityManager over the same simulated phone.
        .target(
            name: "TraceSimCoreMotion",
            dependencies: ["SimulationCore", "Traces", "Device", "TraceSimCoreLocation"]
        ),
        // `import CoreMotionShim`: Apple's Core Motion where it exists, the facade elsewhere.
        .target(name: "CoreMotionShim", dependencies: ["TraceSimCoreMotion"]),
        .target(
            name: "TraceSimCLI",
            dependencies: [
                "Traces", "ConfigJSON", "SimulationCore", "Device", "Permissions", "Geometry", "Engine", "Scenarios",
                "Fleet", "Reports", "TraceSimCoreLocation", "EngineProtocol",
            ]
        ),
        // The umbrella module lives in Sources/Umbrella and the executable in
        // Sources/TraceSimTool: folders named TraceSim and tracesim would be one folder on a
        // case-insensitive file system (macOS).
        .target(
            name: "TraceSim",
            dependencies: [
                "SimulationCore", "Traces", "ConfigJSON", "Geometry", "Device", "Permissions", "Engine", "Scenarios",
                "Fleet", "Reports", "EngineProtocol",
            ],
            path: "Sources/Umbrella"
        ),
        .executableTarget(name: "TraceSimTool", dependencies: ["TraceSimCLI"]),

        // What the test targets share: where the repository's files are, the command line run
        // in-process with its output captured, the built binary, and the two test tiers.
        .target(
            name: "TestSupport",
            dependencies: ["TraceSimCLI", "Scenarios", "Engine", "Device", "Geometry", "Traces", "SimulationCore"],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "CGEOSTests", dependencies: ["CGEOS"]),
        .testTarget(name: "SimulationCoreTests", dependencies: ["SimulationCore"]),
        .testTarget(name: "ConfigJSONTests", dependencies: ["ConfigJSON"]),
        .testTarget(name: "GeometryTests", dependencies: ["Geometry", "SimulationCore"]),
        .testTarget(name: "DeviceTests", dependencies: ["Device", "Traces", "Geometry", "SimulationCore"]),
        .testTarget(
            name: "PermissionsTests", dependencies: ["Permissions", "ConfigJSON", "Device", "Traces", "SimulationCore"]
        ),
        .testTarget(
            name: "ScenariosTests",
            dependencies: [
                "Scenarios", "Fleet", "ConfigJSON", "Engine", "Permissions", "Device", "Geometry", "Traces",
                "SimulationCore", "TestSupport",
            ]
        ),
        .testTarget(
            name: "FleetTests",
            dependencies: [
                "Fleet", "Scenarios", "ConfigJSON", "Engine", "Device", "Geometry", "Traces", "SimulationCore",
                "TestSupport",
            ]
        ),
        .testTarget(
            name: "EngineTests",
            dependencies: [
                "Engine", "Scenarios", "ConfigJSON", "Geometry", "Device", "Traces", "SimulationCore", "TestSupport",
            ]
        ),
        .testTarget(
            name: "TracesTests",
            dependencies: ["Traces", "SimulationCore", "CZlib", "TestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "ReportsTests",
            dependencies: [
                "Reports", "Fleet", "Scenarios", "Engine", "Device", "Permissions", "Geometry", "Traces",
                "SimulationCore", "ConfigJSON", "TestSupport",
            ],
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "EngineProtocolTests",
            dependencies: [
                "EngineProtocol", "TraceSimCLI", "TraceSimTool", "Fleet", "Scenarios", "Engine", "Device", "Geometry",
                "Traces", "SimulationCore", "ConfigJSON", "TestSupport",
            ],
            exclude: ["Engines"]
        ),
        .testTarget(
            name: "TraceSimCoreLocationTests",
            dependencies: [
                "TraceSimCoreLocation", "CoreLocationShim", "Scenarios", "Engine", "Device", "Geometry", "Traces",
                "SimulationCore", "TestSupport",
            ]
        ),
        .testTarget(
            name: "TraceSimAsyncFacadeTests",
            dependencies: [
                "TraceSimCoreLocation", "TraceSimCoreMotion", "CoreMotionShim", "Fleet", "Scenarios", "Engine",
                "Device", "Traces", "SimulationCore", "TestSupport",
            ]
        ),
        .testTarget(
            name: "TraceSimCLITests",
            dependencies: [
                "TraceSimCLI", "Traces", "Device", "Engine", "Fleet", "Scenarios", "SimulationCore", "TraceSimTool",
                "TestSupport", "TraceSimCoreLocation",
            ]
        ),
        // The built-in engine direct and through the Core Location facade: the same bytes.
        .testTarget(
            name: "FacadeDifferentialTests",
            dependencies: [
                "TraceSimCLI", "TraceSimCoreLocation", "TraceSimCoreMotion", "Scenarios", "Engine", "Device",
                "Geometry", "Traces", "SimulationCore", "TestSupport",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
