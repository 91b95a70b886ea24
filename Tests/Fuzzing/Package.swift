// swift-tools-version:6.0
// TraceSim's libFuzzer harnesses: their own package, because every module has to be built
// with the fuzzer's coverage instrumentation and without a `main` of its own (libFuzzer
// brings one). It depends on the root package by path and is built by Scripts/fuzz.sh:
//
//     swift build --package-path Tests/Fuzzing -c release \
//         -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
//     Scripts/fuzz.sh 60

import Foundation
import PackageDescription

// A path dependency's identity is its directory's name, which is whatever the clone was
// called, so it is read here rather than spelled out.
let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = root.lastPathComponent

func traceSim(_ product: String) -> Target.Dependency { .product(name: product, package: rootIdentity) }

let package = Package(
    name: "TraceSimFuzzing",
    dependencies: [.package(path: "../..")],
    targets: [
        .target(name: "CLibFuzzer"),
        .executableTarget(
            name: "tracesim-fuzz",
            dependencies: [
                "CLibFuzzer", traceSim("Traces"), traceSim("SimulationCore"), traceSim("Geometry"), traceSim("Engine"),
                traceSim("Permissions"), traceSim("Scenarios"), traceSim("TraceSimCLI"), traceSim("EngineProtocol"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
