import Device
import Fleet
import Reports
import Scenarios
import TestSupport
import Testing
import Traces

/// `matrix --bands` on the bundled u-blox drive (29 min, 8.6 km): every figure with the range the
/// disputed bands give it (issue 31 §4). Fast tier: one short trace, two scenarios, one replay set.
@Suite("Banded degradation table")
struct BandedTableTests {
    static let drive: Trace = {
        let path = Repository.trace("gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea")
        do { return try TraceImporter.load(path: path) } catch { fatalError("bundled trace: \(error)") }
    }()

    /// The pixel 6 walk (9 min, 48 fixes): cheap enough to run twice.
    static let walk: Trace = {
        do { return try TraceImporter.load(path: Repository.trace("gnss_lib_py/pixel6.nmea")) } catch {
            fatalError("bundled trace: \(error)")
        }
    }()

    static func banded(_ names: [String], jobs: Int, trace: Trace = drive) throws -> (BandedTable, plan: BandedMatrix) {
        let matrix = Matrix(
            traces: [Matrix.NamedTrace(name: "drive", trace: trace)],
            scenarios: try names.map { Matrix.Entry(try #require(Scenario.preset(named: $0))) })
        let plan = try BandedMatrix(matrix)
        let result = try plan.matrix.run(jobs: jobs)
        return (BandedTable(MatrixTable(result), plan: plan), plan)
    }

    /// A figure's shares to four places, as the JSON writes them.
    static func rounded(_ figure: BandedTable.Figure) -> BandedTable.Figure {
        func four(_ value: Double?) -> Double? { value.map { ($0 * 10_000).rounded() / 10_000 } }
        return BandedTable.Figure(
            value: four(figure.value), pessimistic: four(figure.pessimistic), optimistic: four(figure.optimistic),
            low: four(figure.low), high: four(figure.high))
    }

    static let table: BandedTable? = try? banded(["always-force-quit", "always-precise"], jobs: 2).0

    @Test("an end equal to the scenario's own value is not rerun: 14 distinct variants of 17 per scenario")
    func plan() throws {
        let matrix = Matrix(
            traces: [], scenarios: [Matrix.Entry(try #require(Scenario.preset(named: "always-force-quit")))])
        let plan = try BandedMatrix(matrix)
        #expect(plan.variants.count == 1 + 2 * DisputedBand.catalogue.count + 2)
        // significantChangeDistance's optimistic 500 m, memoryPressureKills' optimistic 0 and
        // exitOvershoot's pessimistic 200 m are the defaults: they read the scenario's own run.
        #expect(plan.matrix.scenarios.count == plan.variants.count - 3)
        #expect(plan.slots[0][0] == 0)
        #expect(plan.slots[0].filter { $0 == 0 }.count == 4)
        // The band end is set over the preset's own choices: its iOS 18 profile stays, the
        // override decides.
        let never = plan.matrix.scenarios[plan.slots[0][plan.variants.firstIndex(of: .band(3, .pessimistic)) ?? 0]]
        #expect(never.scenario.device.parameters.osProfile == .ios18)
        #expect(never.scenario.device.parameters.regionRelaunchAfterForceQuit == false)
        // One ideal run for all of them: a band end changes the phone, never the reference.
        #expect(plan.matrix.replaysPerTrace == plan.matrix.scenarios.count + 1)
    }

    @Test("always-force-quit's iOS 26 swing shows as a range: 92.7 % (20.1–94.3), the relaunch band names it")
    func forceQuitRange() throws {
        let table = try #require(Self.table)
        let row = try #require(table.rows.first { $0.scenario == "always-force-quit" })
        let collected = row.figures[0]
        #expect(
            Self.rounded(collected)
                == BandedTable.Figure(value: 0.9266, pessimistic: 0.2007, optimistic: 0.943, low: 0.2007, high: 0.943))
        #expect(BandedColumn.all[0].cell(collected) == "92.7 % (20.1–94.3)")
        let sensitivity = table.sensitivity(row)
        #expect(sensitivity.first?.band == "forceQuitRelaunch")
        #expect(sensitivity.first.map { ($0.points * 10).rounded() / 10 } == 72.6)
        // Then Apple's 3-5 min region latency, which wakes the force-quit app later (5.7 points),
        // and 2,500 m between significant changes (1.6).
        #expect(sensitivity.dropFirst().first?.band == "regionLatency")
        #expect(sensitivity.dropFirst(2).first?.band == "significantChangeDistance")
    }

    @Test("always-precise's ranges bracket its default; the corners are the ends of the range")
    func rangesBracketTheDefault() throws {
        let table = try #require(Self.table)
        let row = try #require(table.rows.first { $0.scenario == "always-precise" })
        #expect(
            Self.rounded(row.figures[0])
                == BandedTable.Figure(value: 0.8177, pessimistic: 0.6466, optimistic: 0.8256, low: 0.6466, high: 0.8256))
        for (column, figure) in zip(BandedColumn.all, row.figures) {
            let (value, low, high) = try (#require(figure.value), #require(figure.low), #require(figure.high))
            #expect(low <= value && value <= high, "\(column.header)")
        }
        #expect(table.sensitivity(row).first?.band == "regionLatency")
        // A figure some band moves prints its range (the regionLatency end rejects one more fix);
        // one that no band moves prints alone.
        let rejected = try #require(BandedColumn.all.firstIndex { $0.header == "rejected" })
        #expect(BandedColumn.all[rejected].cell(row.figures[rejected]) == "3 (3–4)")
        let firm = BandedTable.Figure(value: 3, pessimistic: 3, optimistic: 3, low: 3, high: 3)
        #expect(BandedColumn.all[rejected].cell(firm) == "3")
    }

    @Test("the banded table's plain part is the plain matrix's table, byte for byte")
    func plainPartIsThePlainTable() throws {
        let table = try #require(Self.table)
        let plain = try Matrix(
            traces: [Matrix.NamedTrace(name: "drive", trace: Self.drive)],
            scenarios: ["always-force-quit", "always-precise"].map { Matrix.Entry(try #require(Scenario.preset(named: $0))) }
        ).run(jobs: 2)
        #expect(MatrixReport.text(table.plain) == MatrixReport.text(plain))
    }

    @Test("the same inputs give the same banded JSON and text on one job and on two")
    func deterministic() throws {
        let names = ["always-precise", "wheninuse-locked"]
        let (one, _) = try Self.banded(names, jobs: 1, trace: Self.walk)
        let (two, _) = try Self.banded(names, jobs: 2, trace: Self.walk)
        let json = BandedMatrixReport.json(one, seed: nil, sensitivity: true)
        #expect(json == BandedMatrixReport.json(two, seed: nil, sensitivity: true))
        #expect(json.hasPrefix(#"{"kind":"tracesim-bands","schemaVersion":1,"seed":null,"traces":["drive"],"bands":["#))
        #expect(BandedMatrixReport.text(one, sensitivity: true) == BandedMatrixReport.text(two, sensitivity: true))
        // The walk's wheninuse-locked row is moved by the cutoff band alone.
        let row = try #require(one.rows.last)
        #expect(one.sensitivity(row).first?.band == "whenInUseCutoff")
    }

    @Test("a band end a scenario's parameters cannot take is refused with the scenario and the band")
    func refusedEnd() throws {
        var scenario = try #require(Scenario.preset(named: "always-precise"))
        scenario.device.parameters.regionLatencyMaximumSeconds = 100
        let band = DisputedBand(
            "latency", "x", pessimistic: .init([.init("regionLatencyMinimumSeconds", .number(180))], source: "s", .apple),
            optimistic: .init([], source: "s", .observed))
        let error = #expect(throws: BandError.self) {
            try BandedMatrix(Matrix(traces: [], scenarios: [Matrix.Entry(scenario)]), bands: [band])
        }
        #expect(
            error?.message
                == "scenario 'always-precise', band latency pessimistic: regionLatencyMinimumSeconds 180 is above "
                + "regionLatencyMaximumSeconds (100); it must be at most that")
    }
}
