// swift-tools-version:6.0
// What a Swift program outside this repository can do with TraceSim, using public API only:
// it depends on the root package by path exactly as an app would depend on a released version.
//
//     swift run --package-path Examples tracesim-example Traces OUTPUT_FOLDER

import Foundation
import PackageDescription

// A path dependency's identity is its folder's name, whatever the clone was called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
    name: "TraceSimExamples",
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(
            name: "tracesim-example",
            dependencies: [.product(name: "TraceSim", package: root.lastPathComponent)]
        )
    ],
    swiftLanguageModes: [.v6]
)
