import Device
import Testing

@Suite("The disputed bands behind `tracesim rules` and `matrix --bands`")
struct BandCatalogueTests {
    @Test("every band's parameters resolve to a descriptor", arguments: DisputedBand.catalogue.map(\.name))
    func parametersResolve(name: String) throws {
        let band = try #require(DisputedBand.catalogue.first { $0.name == name })
        #expect(!band.parameters.isEmpty)
        for parameter in band.parameters {
            #expect(DeviceParameters.descriptor(named: parameter) != nil, "\(name): \(parameter)")
        }
        // The default reads every parameter the ends set.
        #expect(band.values(in: DeviceParameters()).map(\.parameter) == band.parameters)
    }

    @Test("each end is in range and consistent on the default phone, and moves it", arguments: DisputedBand.catalogue.map(\.name))
    func endsInRange(name: String) throws {
        let band = try #require(DisputedBand.catalogue.first { $0.name == name })
        for end in DisputedBand.End.allCases {
            var parameters = DeviceParameters()
            try band.apply(end, to: &parameters)
            #expect(band.values(in: parameters).count == band.parameters.count)
            #expect(!band.bound(end).source.isEmpty)
        }
        // The two ends disagree: a band whose ends are equal is not a band.
        var pessimistic = DeviceParameters()
        var optimistic = DeviceParameters()
        try band.apply(.pessimistic, to: &pessimistic)
        try band.apply(.optimistic, to: &optimistic)
        #expect(pessimistic != optimistic, "\(name)")
    }

    @Test("band names are distinct, and the corners apply on the default phone")
    func cornersApply() throws {
        let names = DisputedBand.catalogue.map(\.name)
        #expect(Set(names).count == names.count)
        for end in DisputedBand.End.allCases {
            var parameters = DeviceParameters()
            try DisputedBand.applyCorner(end, of: DisputedBand.catalogue, to: &parameters)
            #expect(parameters.inconsistency == nil)
        }
    }

    @Test("the ends are the sourced values: 13 s and 20 min for the cutoff, never and always for the relaunch")
    func sourcedValues() throws {
        var parameters = DeviceParameters()
        let cutoff = try #require(DisputedBand.catalogue.first { $0.name == "whenInUseCutoff" })
        try cutoff.apply(.pessimistic, to: &parameters)
        #expect(parameters.whenInUseLockCutoffSeconds == 13)
        try cutoff.apply(.optimistic, to: &parameters)
        #expect(parameters.whenInUseLockCutoffSeconds == 1_200)
        let relaunch = try #require(DisputedBand.catalogue.first { $0.name == "forceQuitRelaunch" })
        parameters.osProfile = .ios18
        try relaunch.apply(.pessimistic, to: &parameters)
        #expect(!parameters.relaunchesAfterForceQuit(for: .regionEvent))
        #expect(!parameters.relaunchesAfterForceQuit(for: .significantChange))
        parameters.osProfile = .ios26
        try relaunch.apply(.optimistic, to: &parameters)
        #expect(parameters.relaunchesAfterForceQuit(for: .regionEvent))
    }

    @Test("an end naming no parameter, out of range, or leaving a pair inconsistent is refused with the name")
    func refusals() {
        var parameters = DeviceParameters()
        let unknown = DisputedBand(
            "x", "x", pessimistic: .init([.init("noSuchParameter", .number(1))], source: "s", .observed),
            optimistic: .init([], source: "s", .observed))
        let refusal = #expect(throws: DeviceParameterError.self) { try unknown.apply(.pessimistic, to: &parameters) }
        #expect(refusal?.name == "noSuchParameter" && refusal?.reason == "is not a device parameter")
        let outOfRange = DisputedBand(
            "y", "y", pessimistic: .init([.init("wakeWindowSeconds", .number(-1))], source: "s", .observed),
            optimistic: .init([.init("wakeWindowSeconds", .flag(true))], source: "s", .observed))
        #expect(throws: DeviceParameterError.self) { try outOfRange.apply(.pessimistic, to: &parameters) }
        let wrongKind = #expect(throws: DeviceParameterError.self) { try outOfRange.apply(.optimistic, to: &parameters) }
        #expect(wrongKind?.name == "wakeWindowSeconds" && wrongKind?.reason == "wrong kind of value")
        let inconsistent = DisputedBand(
            "z", "z", pessimistic: .init([.init("regionLatencyMinimumSeconds", .number(400))], source: "s", .observed),
            optimistic: .init([], source: "s", .observed))
        #expect(throws: DeviceParameterError.self) { try inconsistent.apply(.pessimistic, to: &parameters) }
        #expect(parameters.wakeWindowSeconds == 10)
    }
}
