import SimulationCore

/// Something that happens to the device at a fixed time (the person, the system), such as a
/// screen lock scripted a minute in.
public struct ScriptedDeviceEvent: Sendable, Equatable {
    /// A scripted move given in seconds from a start not yet known, as a person's file gives it.
    public struct AfterStart: Sendable, Equatable {
        /// Seconds from the start.
        public var atSeconds: Double
        /// What happens.
        public var event: DeviceEvent

        /// `event`, `atSeconds` after the start.
        public init(atSeconds: Double, event: DeviceEvent) {
            self.atSeconds = atSeconds
            self.event = event
        }

        /// The same move once the start is known.
        public func at(start: SimInstant) -> ScriptedDeviceEvent {
            ScriptedDeviceEvent(time: start.advanced(bySeconds: atSeconds), event: event)
        }
    }

    /// When it happens.
    public var time: SimInstant
    /// What happens.
    public var event: DeviceEvent

    /// `event` at `time`.
    public init(time: SimInstant, event: DeviceEvent) {
        self.time = time
        self.event = event
    }
}
