import Scenarios

/// The line-by-line link to one engine: its process (`EngineProcess`), or lines held in
/// memory (`EngineProtocolHarness`), so the protocol's reader and the client's state can be
/// driven without a process.
protocol EngineConnection: AnyObject {
    /// Lines read from the engine so far: the number of the next line is this + 1.
    var linesRead: Int { get }
    /// What its `hello` settled; `nil` before it.
    var session: EngineSession? { get set }
    /// Writes `bytes`, one whole line ending in its newline, waiting at most until `deadline`.
    func send(lineBytes bytes: [UInt8], deadline: Deadline) throws(EngineProcess.Failure)
    /// The next line the engine wrote (without its newline), waiting at most until `deadline`.
    func readLine(deadline: Deadline) throws(EngineProcess.Failure) -> ArraySlice<UInt8>
    /// Whether the engine wrote a line nobody asked for yet.
    func hasUnreadOutput() -> Bool
    /// Ends the engine at once.
    @discardableResult func terminate() -> Int32
}

extension EngineConnection {
    /// Writes `line` and a newline, waiting at most until `deadline`.
    func send(_ line: String, deadline: Deadline) throws(EngineProcess.Failure) {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        try send(lineBytes: bytes, deadline: deadline)
    }
}

/// A capability an engine declares in its `hello` (protocol version 2): TraceSim uses one only
/// when the engine declares it.
package enum EngineCapability: String, CaseIterable, Sendable {
    /// The `cancel` answer: `{"type":"cancel","timer":"ID"}` forgets every pending timer `ID`.
    case cancel
    /// A `schedule` of a timer id that is pending replaces it: only the last one fires.
    case replaceTimers
    /// The hello declares `settings` for `tune` and every `reset` carries their values.
    case settings
    /// Locations come in runs (issue 32): one `didUpdateLocationRun` message carries every
    /// delivery up to the next instant that can change the device's behaviour, and the engine
    /// answers once, opening with `consumed`: how many of them it handled before its first
    /// request.
    case runs
}

/// What an engine's `hello` settled for the life of its process: the protocol version and the
/// capabilities TraceSim will use.
struct EngineSession: Sendable, Equatable {
    var version: Int64
    private var declared: [EngineCapability] = []
    /// Capabilities the engine declared that this TraceSim does not know, in its order: a
    /// later TraceSim's, or misspelt. They are ignored, and every run notes them.
    private(set) var unknownCapabilities: [String] = []
    /// The settings the engine declared (capability `settings`), in its order.
    private(set) var settings: [EngineSetting] = []

    /// Version 1: no capabilities.
    static let version1 = EngineSession(checkedVersion: 1)

    private init(checkedVersion: Int64) { version = checkedVersion }

    /// The session of an engine that answered `hello` with `version` and `capabilities`.
    /// - Throws: `ProtocolMessageError` for a version TraceSim does not speak, capabilities with
    ///   version 1 or none with version 2, a capability listed twice, or `settings` without the
    ///   capability `settings` (or the capability without them).
    init(version: Int64, capabilities: [String]?, settings: [EngineSetting]? = nil) throws(ProtocolMessageError) {
        let (lowest, highest) = (RunMessages.version, RunMessages.highestVersion)
        guard (lowest...highest).contains(version) else {
            throw ProtocolMessageError(
                "the engine speaks protocol version \(version); this TraceSim speaks \(lowest) "
                    + "\(highest - lowest > 1 ? "to" : "and") \(highest)")
        }
        self.version = version
        guard version >= 2 else {
            if capabilities != nil {
                throw ProtocolMessageError("hello: \"capabilities\" come with protocol version 2, not 1")
            }
            if settings != nil {
                throw ProtocolMessageError(
                    "hello: \"settings\" come with protocol version 2 and the capability 'settings'")
            }
            return
        }
        guard let capabilities else {
            throw ProtocolMessageError("hello: protocol version 2 needs \"capabilities\" (an array, possibly empty)")
        }
        var seen: Set<String> = []
        for name in capabilities {
            guard seen.insert(name).inserted else {
                throw ProtocolMessageError("hello: capability '\(name)' is listed twice")
            }
            if let capability = EngineCapability(rawValue: name) {
                declared.append(capability)
            } else {
                unknownCapabilities.append(name)
            }
        }
        switch (declared.contains(.settings), settings) {
        case (true, nil):
            throw ProtocolMessageError("hello: the capability 'settings' needs \"settings\" (an array, possibly empty)")
        case (false, .some):
            throw ProtocolMessageError("hello: \"settings\" need the capability 'settings' in \"capabilities\"")
        case (true, let settings?): self.settings = settings
        case (false, nil): break
        }
    }

    /// Whether the engine declared `capability`.
    func has(_ capability: EngineCapability) -> Bool { declared.contains(capability) }
}
