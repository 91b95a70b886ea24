import Device
import Foundation
import Permissions
import Reports
import Traces

/// `tracesim permissions`: run a simulated person through one SDK permission layer, or
/// compare all four on the same person or on a whole population.
enum PermissionsCommand {
    static let name = "permissions"

    static let help = """
        OVERVIEW: Run a simulated person through an SDK's permission flow on the simulated iPhone and
        show the prompts, the SDK's own result and the final device state; or compare the four layers.

        USAGE: tracesim permissions --sdk doorstep|bggeo|airship|wizard --user USER.json [--device DEVICE.json]
                                    [--request BUCKET,...] [--force] [--format text|json]
               tracesim permissions --compare --user USER.json [--device DEVICE.json] [--format text|json]
               tracesim permissions --compare --population POP.json [--device DEVICE.json] [--format text|json]

        OPTIONS:
          --sdk <name>            doorstep (bucket requester), bggeo (background-geolocation facade),
                                  airship (location permission delegate) or wizard (permissions wizard).
          --user <USER.json>      The person: prompt answers with delays, Settings changes, lifecycle moves
                                  (format in the README).
          --device <DEVICE.json>  The phone at the start: Info.plist, permissions, OS profile. Default: a
                                  fresh install with every key declared.
          --request <buckets>     doorstep only: the whitelist, comma-separated (locationWhenInUse,
                                  locationAlways, motionFitness, bluetooth). Default: all four.
          --force                 doorstep only: onlyIfNotDetermined: false.
          --compare               Run all four layers on the same person (or population), one row each.
          --population <POP.json> With --compare: probabilities of each answer at each prompt; reports the
                                  exact share ending with Always + Precise + Motion, by enumeration.
          --format <text|json>    text (default) or json (documented in the README).
          -h, --help              Show this help.

        EXIT STATUS:
          0 ran; 64 usage error; 65 a JSON file is invalid (FILE:LINE:COL: $.path: what); 66 a file is
          missing or unreadable.
        """

    static func run(_ arguments: [String], console: Console) throws(UsageError) -> ExitCode {
        let spec = ArgumentSpec(
            valued: ["sdk", "user", "device", "request", "format", "population"],
            flags: ["help", "quiet", "force", "compare"])
        let parsed = try spec.parse(arguments, command: name)
        if parsed.flag("help") {
            console.print(help)
            return .success
        }
        guard parsed.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(parsed.positionals[0])'", command: name)
        }
        let format = parsed.value("format") ?? "text"
        guard format == "text" || format == "json" else {
            throw UsageError("--format must be text or json, not '\(format)'", command: name)
        }
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
            switch ConfigFiles.load(devicePath, console, DeviceSetup.parse) {
            case .failed(let code): return code
            case .loaded(let value): setup = value
            }
        }

        if parsed.flag("compare") {
            if let populationPath = parsed.value("population") {
                switch ConfigFiles.load(populationPath, console, Population.parse) {
                case .failed(let code): return code
                case .loaded(let population):
                    let rows = PermissionLayer.allCases.map {
                        ($0, $0.share(of: population, setup: setup, options: options))
                    }
                    console.print(PermissionsReport.population(rows, json: format == "json"))
                    return .success
                }
            }
            guard let userPath = parsed.value("user") else {
                throw UsageError("--compare needs --user or --population", command: name)
            }
            switch ConfigFiles.load(userPath, console, UserScript.parse) {
            case .failed(let code): return code
            case .loaded(let script):
                let runs = PermissionLayer.allCases.map {
                    $0.run(setup: setup, user: script.user, lifecycle: script.lifecycle, options: options)
                }
                console.print(PermissionsReport.compare(runs, json: format == "json"))
                return .success
            }
        }

        guard let sdkName = parsed.value("sdk") else {
            throw UsageError("permissions needs --sdk or --compare", command: name)
        }
        guard let layer = PermissionLayer(rawValue: sdkName) else {
            throw UsageError("--sdk must be doorstep, bggeo, airship or wizard, not '\(sdkName)'", command: name)
        }
        guard let userPath = parsed.value("user") else {
            throw UsageError("permissions needs --user USER.json", command: name)
        }
        switch ConfigFiles.load(userPath, console, UserScript.parse) {
        case .failed(let code): return code
        case .loaded(let script):
            let run = layer.run(setup: setup, user: script.user, lifecycle: script.lifecycle, options: options)
            console.print(format == "json" ? PermissionsReport.json(run).rendered : PermissionsReport.text(run))
            return .success
        }
    }
}
