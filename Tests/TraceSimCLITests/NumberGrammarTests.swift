import Fleet
import Foundation
import Scenarios
import SimulationCore
import TestSupport
import Testing
import Traces

@testable import TraceSimCLI

/// One grammar for every number typed on the command line: decimal digits with an optional
/// fraction and exponent, no hexadecimal, no `+`, no leading zero, and no sign where the value
/// cannot be negative. Swift's `Double(_:)` and `Int(_:)` take all of those, which is how
/// `--shard +1/4` and `--engine-timeout 0x10` used to pass.
@Suite("One number grammar for every option")
struct NumberGrammarTests {
    static let bike = Repository.trace("gpsbabel/bike.tcx")

    private func firstLine(_ text: String) -> String {
        String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    }

    @Test(
        "decimals: digits, fraction and exponent are read, as JSON writes numbers",
        arguments: [
            ("0", 0.0), ("2", 2), ("10", 10), ("0.5", 0.5), ("2.50", 2.5), ("1e9", 1e9), ("1E9", 1e9), ("2.5e-3", 0.0025),
            ("1e+2", 100), ("0e0", 0), ("100000", 100_000),
        ])
    func decimalsRead(text: String, value: Double) {
        #expect(DecimalNumber.decimal(text, allowsNegative: false) == value)
        #expect(DecimalNumber.decimal(text, allowsNegative: true) == value)
    }

    @Test(
        "decimals: hexadecimal, a plus, leading zeros, spaces, bare points and words are refused",
        arguments: [
            "", "0x10", "0X10", "0x1p-10", "+1", "+0.5", "01", "00", "007.5", " 1", "1 ", ".5", "5.", "1e", "1e+", "e9",
            "1.e3", "inf", "nan", "Infinity", "1_000", "1,5", "١", "--1", "-", "1e9.5", "0b1",
        ])
    func decimalsRefused(text: String) {
        #expect(DecimalNumber.decimal(text, allowsNegative: false) == nil)
        #expect(DecimalNumber.decimal(text, allowsNegative: true) == nil)
    }

    @Test("a minus sign only where the caller allows one")
    func minusSign() {
        #expect(DecimalNumber.decimal("-1.5", allowsNegative: true) == -1.5)
        #expect(DecimalNumber.decimal("-0", allowsNegative: true) == 0)
        #expect(DecimalNumber.decimal("-1.5", allowsNegative: false) == nil)
        #expect(DecimalNumber.decimal("-0", allowsNegative: false) == nil)
        #expect(DecimalNumber.decimal("-01", allowsNegative: true) == nil)
    }

    @Test("an exponent past Double's range is in the grammar and reads as infinity, for the range check to refuse")
    func hugeExponent() {
        #expect(DecimalNumber.decimal("1e999", allowsNegative: false) == .infinity)
        #expect(DecimalNumber.decimal("1e-999", allowsNegative: false) == 0)
    }

    @Test("whole numbers: digits alone, no sign or leading zero, up to UInt64.max")
    func wholeNumbers() {
        #expect(DecimalNumber.whole("0") == 0)
        #expect(DecimalNumber.whole("42") == 42)
        #expect(DecimalNumber.whole("18446744073709551615") == UInt64.max)
    }

    @Test(
        "whole numbers: one past UInt64.max, a sign, a leading zero, an exponent, a fraction, hex and spaces are refused",
        arguments: ["18446744073709551616", "+1", "-1", "01", "00", "1e3", "1.0", "0x10", " 1", "", "1 "])
    func wholeNumberRefused(text: String) {
        #expect(DecimalNumber.whole(text) == nil)
    }

    // MARK: Every option uses it

    @Test(
        "each numeric option refuses what the grammar refuses, with exit 64 and the grammar in the message",
        arguments: [
            (["matrix", bike, "--format", "jsonl", "--shard", "+1/4"], "--shard must be K/N, two whole numbers"),
            (["matrix", bike, "--format", "jsonl", "--shard", "01/04"], "--shard must be K/N, two whole numbers"),
            (["matrix", bike, "--format", "jsonl", "--shard", " 1/4"], "--shard must be K/N, two whole numbers"),
            (
                ["matrix", bike, "--engine-command", "true", "--engine-timeout", "0x10"],
                "--engine-timeout must be a decimal number of seconds (digits with an optional fraction and exponent"
            ),
            (["replay", bike, "--scenario", "ideal", "--assume-rate", "0x1p-10"], "--assume-rate must be a decimal number in Hz"),
            (["replay", bike, "--scenario", "ideal", "--assume-rate", "+5"], "--assume-rate must be a decimal number in Hz"),
            (["replay", bike, "--scenario", "ideal", "--seed", "+5"], "--seed must be a whole number from 0 to"),
            (["track", bike, "--seed", "007"], "--seed must be a whole number from 0 to"),
            (["matrix", bike, "--seed", "1e3"], "--seed must be a whole number from 0 to"),
            (["matrix", bike, "--jobs", "+2"], "--jobs must be a whole number from 1 to 1024 (decimal digits"),
            (["tune", bike, "--jobs", "02"], "--jobs must be a whole number from 1 to 1024 (decimal digits"),
            (["tune", bike, "--require", "recordedFixes>=0x10"], "--require: '0x10' in 'recordedFixes>=0x10' is not a decimal number"),
            (["tune", bike, "--sweep", "distanceFilter=0x10"], "--sweep: '0x10' is not a decimal number"),
            (["tune", bike, "--sweep", "distanceFilter=+5,10"], "--sweep: '+5' is not a decimal number"),
            (["tune", bike, "--sweep", "distanceFilter=05:10:5"], "--sweep: '05:10:5' is not from:to:step, three decimal numbers"),
            (["tune", bike, "--sweep", "distanceFilter=-0:10:5"], "--sweep: '-0:10:5' is not from:to:step, three decimal numbers"),
            (["replay", bike, "--scenario", "ideal", "--noise", "jumps:rate=0x10"], "--noise jumps: rate must be a decimal number"),
            (["replay", bike, "--scenario", "ideal", "--date", "+020-01-01"], "--date '+020-01-01' is not a YYYY-MM-DD date"),
            (["replay", bike, "--scenario", "ideal", "--date", "2020-+1-01"], "--date '2020-+1-01' is not a YYYY-MM-DD date"),
        ])
    func optionsRefuse(arguments: [String], message: String) {
        let result = runCommand(arguments)
        #expect(result.exitCode == 64, "\(result.error)")
        #expect(firstLine(result.error).hasPrefix("error: " + message), "\(result.error)")
    }

    @Test("a value in the grammar but out of range keeps the option's own range wording")
    func rangeWording() {
        let timeout = runCommand(["matrix", Self.bike, "--engine-command", "true", "--engine-timeout", "1e9"])
        #expect(timeout.exitCode == 64)
        #expect(
            firstLine(timeout.error)
                == "error: --engine-timeout must be a number of seconds above 0 and at most 86400, not '1e9'")
        let seed = runCommand(["matrix", Self.bike, "--seed", "18446744073709551616"])
        #expect(seed.exitCode == 64)
        #expect(
            firstLine(seed.error)
                == "error: --seed must be a whole number from 0 to 18446744073709551615, not '18446744073709551616'")
        let shards = runCommand(["matrix", Self.bike, "--format", "jsonl", "--shard", "1/99999999999999999999"])
        #expect(shards.exitCode == 64)
        #expect(
            firstLine(shards.error)
                == "error: --shard: at most 1000000 shards, not 99999999999999999999 ('tracesim merge' reads no more)")
    }

    @Test("the same spellings stay valid: plain digits, fractions and exponents")
    func validSpellings() throws {
        #expect(try Shard("2/4", command: "matrix") == Shard(index: 2, count: 4))
        #expect(try Tuning.Sweep.parse("distanceFilter=1e1,2.5e1").get().values == [.number(10), .number(25)])
        #expect(try Tuning.Sweep.parse("distanceFilter=0:1e1:5").get().values == [.number(0), .number(5), .number(10)])
        #expect(try Tuning.Constraint.parse("recordedFixes >= 1e2").get().bound == 100)
        // A bound on a delay may be negative.
        #expect(try Tuning.Constraint.parse("departureDelaySeconds<=-5").get().bound == -5)
        #expect(try PhoneNoise(specifications: ["jumps:rate=2.5e0"]).jumps?.ratePerHour == 2.5)
        let parsed = try ParsedArguments(
            ["--seed", "18446744073709551615", "--jobs", "3", "--assume-rate", "1e1"],
            declaration: MatrixCommand.declaration)
        #expect(try ReplayArguments.seed(parsed, command: "matrix") == .max)
        #expect(try ReplayArguments.jobs(parsed, command: "matrix") == 3)
        #expect(try ImportArguments.options(from: parsed, command: "matrix").assumedRate == 10)
    }

    @Test("a value quoted in a message is escaped and shortened")
    func quotedValue() {
        let result = runCommand(["matrix", Self.bike, "--jobs", "1\u{1B}[2J" + String(repeating: "9", count: 1000)])
        #expect(result.exitCode == 64)
        let line = firstLine(result.error)
        #expect(
            line.hasPrefix(
                "error: --jobs must be a whole number from 1 to 1024 (decimal digits, no sign and no leading zero), not '1\\u{1B}[2J999"))
        #expect(line.hasSuffix("… (1005 bytes)'"))
        #expect(!line.contains("\u{1B}"))
    }
}
