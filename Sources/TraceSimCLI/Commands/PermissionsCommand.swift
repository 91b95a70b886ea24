import Device
import Foundation
import Permissions
import Reports
import Traces

/// `tracesim permissions`: run a simulated person through one SDK permission layer, or
/// compare all four on the same person or on a whole population.
enum PermissionsCommand: ReportingCommand {
    /// The formats `--format` takes.
    static let formats = ReportFormat.Option(
        [.text, .json], help: "text (default) or json (documented in the README).")

    static let declaration = CommandDeclaration(
        name: "permissions",
        overview: """
            Run a simulated person through an SDK's permission flow on the simulated iPhone and
            show the prompts, the SDK's own result and the final device state; or compare the four layers.
            """,
        options: [
            .choice(
                "sdk", PermissionLayer.allCases.map(\.rawValue), value: "<name>",
                help: """
                    doorstep (bucket requester), bggeo (background-geolocation facade),
                    airship (location permission delegate) or wizard (permissions wizard).
                    """),
            .init(
                name: "user", value: "<USER.json>",
                help: """
                    The person: prompt answers with delays, Settings changes, lifecycle moves
                    (format in the README).
                    """),
            .init(
                name: "device", value: "<DEVICE.json>",
                help: """
                    The phone at the start: Info.plist, permissions, OS profile, and any
                    device parameter by the name 'tracesim rules' prints ("parameters":
                    {"whenInUseLockCutoffSeconds": 13}). Default: a fresh install with
                    every key declared.
                    """),
            .init(
                name: "request", value: "<buckets>",
                help: """
                    doorstep only: the whitelist, comma-separated (locationWhenInUse,
                    locationAlways, motionFitness, bluetooth). Default: all four.
                    """),
            .flag("force", help: "doorstep only: onlyIfNotDetermined: false."),
            .flag("compare", help: "Run all four layers on the same person (or population), one row each."),
            .init(
                name: "population", value: "<POP.json>",
                help: """
                    With --compare: probabilities of each answer at each prompt; reports the
                    exact share ending with Always + Precise + Motion, by enumeration.
                    """),
            formats.declared,
        ],
        synopses: [
            """
            tracesim permissions --sdk doorstep|bggeo|airship|wizard --user USER.json [--device DEVICE.json]
                                 [--request BUCKET,...] [--force] [--format text|json]
            """,
            "tracesim permissions --compare --user USER.json [--device DEVICE.json] [--format text|json]",
            "tracesim permissions --compare --population POP.json [--device DEVICE.json] [--format text|json]",
        ],
        exitStatus: """
            0 ran; 64 usage error; 65 a JSON file is invalid (FILE:LINE:COL: $.path: what); 66 a file is
            missing or unreadable.
            """)

    static func run(_ parsed: ParsedArguments, console: Console) throws -> ExitCode {
        guard parsed.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(parsed.positionals[0])'", command: name)
        }
        let format = try formats.parse(parsed)
        var options = PermissionLayer.Options()
        if let list = parsed.value("request") {
            options.whitelist = []
            for token in list.split(separator: ",", omittingEmptySubsequences: false) {
                guard let bucket = DoorstepPermission.from(wireName: String(token)) else {
                    throw UsageError(
                        "--request: unknown bucket '\(token)' (use locationWhenInUse, locationAlways, motionFitness, bluetooth)",
                        command: name)
                }
                options.whitelist.append(bucket)
            }
        }
        options.force = parsed.flag("force")

        var setup = DeviceSetup()
        if let devicePath = parsed.value("device") {
            setup = try ConfigFiles.load(devicePath, console, DeviceSetup.parse)
        }

        if parsed.flag("compare") {
            if let populationPath = parsed.value("population") {
                let population = try ConfigFiles.load(populationPath, console, Population.parse)
                let shares = PermissionLayer.allCases.map { layer in
                    let share = layer.share(of: population, setup: setup, options: options)
                    return PermissionsReport.PopulationShare(
                        layer: layer, share: share.share, combinations: share.combinations)
                }
                console.print(
                    format == .json
                        ? PermissionsReport.json(population: shares) : PermissionsReport.text(population: shares))
                return .success
            }
            guard let userPath = parsed.value("user") else {
                throw UsageError("--compare needs --user or --population", command: name)
            }
            let script = try ConfigFiles.load(userPath, console, UserScript.parse)
            let runs = PermissionLayer.allCases.map {
                $0.run(setup: setup, user: script.user, lifecycle: script.lifecycle, options: options)
            }
            console.print(
                format == .json ? PermissionsReport.json(comparing: runs) : PermissionsReport.text(comparing: runs))
            return .success
        }

        guard parsed.value("sdk") != nil else {
            throw UsageError("permissions needs --sdk or --compare", command: name)
        }
        // The declared choices are the layers' raw values, so every accepted name is a layer.
        guard let layer = PermissionLayer(rawValue: try parsed.choice("sdk")) else { return .failure }
        guard let userPath = parsed.value("user") else {
            throw UsageError("permissions needs --user USER.json", command: name)
        }
        let script = try ConfigFiles.load(userPath, console, UserScript.parse)
        let run = layer.run(setup: setup, user: script.user, lifecycle: script.lifecycle, options: options)
        console.print(format == .json ? PermissionsReport.json(run) : PermissionsReport.text(run))
        return .success
    }
}
