// swift-tools-version:6.0
// TraceSim's benchmarks: its own package, so the root package's tests and users never build
// them. It depends on the root package by path and is meant for release builds only; the
// harness refuses to record numbers from a debug build.
//
//     swift build -c release --package-path Benchmarks
//     Scripts/run-benchmarks.sh        (everything, with the Python peers)

import Foundation
import PackageDescription

// A path dependency's identity is its directory's name, which is whatever the clone was
// called, so it is read here rather than spelled out.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = root.lastPathComponent

func traceSim(_ product: String) -> Target.Dependency { .product(name: product, package: rootIdentity) }

let package = Package(
    name: "TraceSimBenchmarks",
    dependencies: [.package(path: "..")],
    targets: [
        .target(
            name: "BenchmarkKit",
            dependencies: [traceSim("Traces"), traceSim("SimulationCore"), traceSim("Geometry")]
        ),
        .executableTarget(
            name: "tracesim-bench",
            dependencies: [
                "BenchmarkKit", traceSim("Traces"), traceSim("ConfigJSON"), traceSim("SimulationCore"),
                traceSim("Geometry"), traceSim("Engine"), traceSim("Scenarios"), traceSim("Fleet"), traceSim("Reports"),
                traceSim("Device"), traceSim("EngineProtocol"), traceSim("TraceSimCLI"),
                traceSim("TraceSimCoreLocation"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
