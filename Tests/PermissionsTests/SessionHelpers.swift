import Device
import Permissions
import Synchronization

enum Sessions {
    static func user(_ responses: [SimulatedUser.PromptFamily: [SimulatedUser.Response]]) -> SimulatedUser {
        (try? SimulatedUser(responses: responses)) ?? .agreeable
    }

    /// A fresh install with every key declared, and the given changes.
    static func make(
        user: SimulatedUser = .agreeable, script: [PermissionSession.ScriptedEvent] = [],
        configure: @Sendable (inout Device.Configuration) -> Void = { _ in }
    ) -> PermissionSession {
        var configuration = Device.Configuration()
        configure(&configuration)
        return PermissionSession(device: Device(configuration: configuration), user: user, script: script)
    }

    static let allowWhileUsing = SimulatedUser.Response.answer(.allowWhileUsing(precise: true), afterSeconds: 3)
}

/// Collects completion-handler results.
final class Collected<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}
