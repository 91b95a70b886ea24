import Foundation

/// Every number, duration and clock time the reports print, in one place so two reports
/// never write the same quantity two ways. Locale-free: the output is the same on every machine.
package enum Formatting {
    /// Fixed decimals without Foundation's locale-dependent formatting: `fixed(2.345, 2)` is `2.35`.
    package static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        guard fitsWholeNumber(abs(value) * scale) else { return String(value) }
        let scaled = Int64((abs(value) * scale).rounded())
        let whole = scaled / Int64(scale)
        var text = (value < 0 && scaled != 0 ? "-" : "") + String(whole)
        if digits > 0 {
            let fraction = String(scaled % Int64(scale))
            text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
        }
        return text
    }

    /// `value` rounded to `digits` decimals, for a JSON number.
    package static func rounded(_ value: Double, _ digits: Int) -> Double {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        return (value * scale).rounded() / scale
    }

    /// A share as a percentage with one decimal: `0.1234` is `12.3 %`.
    package static func percent(_ share: Double) -> String { fixed(share * 100, 1) + " %" }

    /// A difference with its sign: `+10`, `-10`, and `+0` for what rounds to zero.
    package static func signed(_ value: Double, _ digits: Int) -> String {
        let text = fixed(value, digits)
        return text.hasPrefix("-") ? text : "+" + text
    }

    /// A delay with its sign: seconds under an hour (`+90 s`, `-10 s`), hours and minutes from
    /// an hour on (`+19 h 23 min`), so a delay of days reads like the gap beside it.
    package static func signedDelay(_ seconds: Double) -> String {
        guard abs(seconds.rounded()) >= 3600 else { return signed(seconds, 0) + " s" }
        return (seconds < 0 ? "-" : "+") + duration(abs(seconds))
    }

    /// A short decimal: integers without a fraction, otherwise up to four places, no trailing zeros.
    package static func short(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        var text = fixed(value, 4)
        while text.hasSuffix("0") { text.removeLast() }
        return text.hasSuffix(".") ? String(text.dropLast()) : text
    }

    /// `+h:mm:ss` from a run's first fix.
    package static func clock(_ seconds: Double) -> String {
        guard fitsWholeNumber(seconds) else { return "+" + String(seconds) + " s" }
        let total = Int(seconds.rounded(.down))
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        return "+\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes):" + (secs < 10 ? "0" : "") + "\(secs)"
    }

    /// A run's durations: `1 h 02 min`, `12 min 05 s` or `41 s`.
    package static func duration(_ seconds: Double) -> String {
        guard fitsWholeNumber(seconds) else { return String(seconds) + " s" }
        let total = Int(seconds.rounded())
        if total >= 3600 { return "\(total / 3600) h \(twoDigits(total / 60 % 60)) min" }
        if total >= 60 { return "\(total / 60) min \(twoDigits(total % 60)) s" }
        return "\(total) s"
    }

    /// A trace's spans, as `inspect` prints them: `2d03h04m`, `1h02m03s`, `4m05s`, or seconds
    /// to the millisecond under a minute (`12.5 s`).
    package static func compactDuration(_ seconds: Double) -> String {
        guard fitsWholeNumber(seconds) else { return String(seconds) + " s" }
        let total = Int(seconds.rounded())
        if total < 60 {
            let rounded = (seconds * 1000).rounded() / 1000
            return rounded == rounded.rounded() ? "\(Int(rounded)) s" : "\(rounded) s"
        }
        let days = total / 86_400
        let hours = total / 3600 % 24
        let minutes = total / 60 % 60
        let rest = total % 60
        if days > 0 { return "\(days)d\(twoDigits(hours))h\(twoDigits(minutes))m" }
        return hours > 0
            ? "\(hours)h\(twoDigits(minutes))m\(twoDigits(rest))s" : "\(minutes)m\(twoDigits(rest))s"
    }

    /// Whole seconds as `5 s`, others with one decimal (`2.5 s`): the permission flows' times.
    package static func seconds(_ value: Double) -> String {
        guard fitsWholeNumber(value) else { return String(value) + " s" }
        return value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }

    /// Whether `value`'s whole part fits an `Int64` with room to round (false for NaN). Values
    /// read back from saved runs may be as large as a Double goes, and their sums infinite; such a
    /// value prints as Swift writes the Double (`1e+300`, `inf`) instead of trapping.
    private static func fitsWholeNumber(_ value: Double) -> Bool { abs(value) < 0x1p62 }

    private static func twoDigits(_ value: Int) -> String { (value < 10 ? "0" : "") + String(value) }
}
