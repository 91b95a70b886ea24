import SimulationCore

extension DoorstepAI {
    /// What the bucket requester remembers between calls in one session, so that a call made
    /// while another waits sees it.
    struct Memory: LayerMemory {
        /// The running request: when it started and what it asks for.
        var inFlight: (since: SimInstant, whitelist: [DoorstepPermission])?
        /// The collector has asked for Always once.
        var collectorHasAsked = false

        init() {}
    }
}
