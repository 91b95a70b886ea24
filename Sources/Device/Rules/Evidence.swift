/// How strong a rule's source is, in the iOS engine fact sheet's labels. Apple-documented
/// rules are encoded as behaviour; everything weaker is a named parameter with a default.
public enum Evidence: String, Sendable, CaseIterable {
    /// Current Apple developer documentation or SDK header text.
    case apple = "A"
    /// Apple's archived Location and Maps Programming Guide (2016).
    case appleArchived = "A-arch"
    /// An Apple engineer in a WWDC session.
    case wwdc = "A-WWDC"
    /// A third-party SDK's documentation or source default.
    case sdk = "SDK"
    /// Observed behaviour or folklore: issue threads, single measurements.
    case observed = "OBS"
    /// Not sourced: a simulator default filling a gap.
    case simulator = "SIM"
    /// TraceSim's product specification (a decision recorded in the fact sheet's section d).
    case product = "PRODUCT"
}
