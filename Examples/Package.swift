// swift-tools-version:6.0
// What a Swift program outside this repository can do with TraceSim, using public API only:
// it depends on the root package by path exactly as an app would depend on a released version.
//
//     swift run --package-path Examples tracesim-example Traces OUTPUT_FOLDER
//     swift run --package-path Examples trip-tracker matrix Traces/FILE ...

import Foundation
import PackageDescription

// A path dependency's identity is its folder's name, whatever the clone was called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let traceSim = root.lastPathComponent

let package = Package(
    name: "TraceSimExamples",
    // TripTracker reads `CLLocationManager.authorizationStatus` (an instance property from
    // iOS 14 and macOS 11); Linux ignores these.
    platforms: [.macOS(.v11), .iOS(.v14)],
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(
            name: "tracesim-example",
            dependencies: [.product(name: "TraceSim", package: traceSim)]
        ),
        // A team's engine, written against Core Location: the same file builds into an iOS app,
        // where CoreLocationShim is Apple's framework.
        .target(
            name: "TripTracker",
            dependencies: [.product(name: "CoreLocationShim", package: traceSim)]
        ),
        // Every TraceSim command for that engine, replayed through the simulated iPhone.
        .executableTarget(
            name: "trip-tracker",
            dependencies: [
                "TripTracker",
                .product(name: "TraceSim", package: traceSim),
                .product(name: "TraceSimCLI", package: traceSim),
                .product(name: "TraceSimCoreLocation", package: traceSim),
                .product(name: "CoreLocationShim", package: traceSim),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
