import Foundation

/// The error domain of Core Location's errors. Models `kCLErrorDomain`.
public let kCLErrorDomain = "kCLErrorDomain"

/// An error from Core Location. Models `CLError`: a code with Apple's raw values, matchable
/// as `catch CLError.denied` and castable from `any Error` (`error as? CLError`).
///
/// Equality and hashing look at the code only, as errors of one code are interchangeable to
/// the apps that compare them.
public struct CLError: Error, CustomNSError, Hashable, @unchecked Sendable {
    /// Why the call failed. Models `CLError.Code` with Apple's raw values.
    public enum Code: Int, Sendable, Equatable {
        /// No location yet; Core Location keeps trying.
        case locationUnknown = 0
        /// Location use is denied (or updates could not start).
        case denied = 1
        /// The network was unavailable.
        case network = 2
        /// The heading could not be determined.
        case headingFailure = 3
        /// Region monitoring is denied.
        case regionMonitoringDenied = 4
        /// A region could not be monitored.
        case regionMonitoringFailure = 5
        /// Monitoring could not start yet.
        case regionMonitoringSetupDelayed = 6
        /// Region events may be delayed.
        case regionMonitoringResponseDelayed = 7
        /// Geocoding found nothing.
        case geocodeFoundNoResult = 8
        /// Geocoding found part of an answer.
        case geocodeFoundPartialResult = 9
        /// Geocoding was cancelled.
        case geocodeCanceled = 10
        /// Deferred updates failed.
        case deferredFailed = 11
        /// Deferred updates need location updates running.
        case deferredNotUpdatingLocation = 12
        /// Deferred updates need a finer desired accuracy.
        case deferredAccuracyTooLow = 13
        /// Deferred updates need no distance filter.
        case deferredDistanceFiltered = 14
        /// Deferred updates were cancelled.
        case deferredCanceled = 15
        /// Beacon ranging is unavailable.
        case rangingUnavailable = 16
        /// Beacon ranging failed.
        case rangingFailure = 17
        /// The person declined the prompt.
        case promptDeclined = 18
        /// Historical locations could not be read.
        case historicalLocationError = 19
    }

    /// What went wrong.
    public let code: Code
    /// Extra information, as given.
    public let errorUserInfo: [String: Any]

    /// An error with `code`.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        errorUserInfo = userInfo
    }

    /// `kCLErrorDomain`.
    public static var errorDomain: String { kCLErrorDomain }
    /// The code's raw value.
    public var errorCode: Int { code.rawValue }

    /// Errors of the same code are equal.
    public static func == (lhs: CLError, rhs: CLError) -> Bool { lhs.code == rhs.code }

    /// The code's hash.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `Code.locationUnknown`.
    public static var locationUnknown: Code { .locationUnknown }
    /// `Code.denied`.
    public static var denied: Code { .denied }
    /// `Code.network`.
    public static var network: Code { .network }
    /// `Code.headingFailure`.
    public static var headingFailure: Code { .headingFailure }
    /// `Code.regionMonitoringDenied`.
    public static var regionMonitoringDenied: Code { .regionMonitoringDenied }
    /// `Code.regionMonitoringFailure`.
    public static var regionMonitoringFailure: Code { .regionMonitoringFailure }
    /// `Code.regionMonitoringSetupDelayed`.
    public static var regionMonitoringSetupDelayed: Code { .regionMonitoringSetupDelayed }
    /// `Code.regionMonitoringResponseDelayed`.
    public static var regionMonitoringResponseDelayed: Code { .regionMonitoringResponseDelayed }
    /// `Code.geocodeFoundNoResult`.
    public static var geocodeFoundNoResult: Code { .geocodeFoundNoResult }
    /// `Code.geocodeFoundPartialResult`.
    public static var geocodeFoundPartialResult: Code { .geocodeFoundPartialResult }
    /// `Code.geocodeCanceled`.
    public static var geocodeCanceled: Code { .geocodeCanceled }
    /// `Code.deferredFailed`.
    public static var deferredFailed: Code { .deferredFailed }
    /// `Code.deferredNotUpdatingLocation`.
    public static var deferredNotUpdatingLocation: Code { .deferredNotUpdatingLocation }
    /// `Code.deferredAccuracyTooLow`.
    public static var deferredAccuracyTooLow: Code { .deferredAccuracyTooLow }
    /// `Code.deferredDistanceFiltered`.
    public static var deferredDistanceFiltered: Code { .deferredDistanceFiltered }
    /// `Code.deferredCanceled`.
    public static var deferredCanceled: Code { .deferredCanceled }
    /// `Code.rangingUnavailable`.
    public static var rangingUnavailable: Code { .rangingUnavailable }
    /// `Code.rangingFailure`.
    public static var rangingFailure: Code { .rangingFailure }
    /// `Code.promptDeclined`.
    public static var promptDeclined: Code { .promptDeclined }
    /// `Code.historicalLocationError`.
    public static var historicalLocationError: Code { .historicalLocationError }
}

/// Matches `catch CLError.denied` and `case CLError.denied` (a code against any error).
public func ~= (match: CLError.Code, error: any Error) -> Bool { (error as? CLError)?.code == match }
