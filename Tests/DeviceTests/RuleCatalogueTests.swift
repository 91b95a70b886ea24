import Device
import Foundation
import Testing

@Suite("The rule catalogue behind `tracesim rules`")
struct RuleCatalogueTests {
    /// The test sources of this target, read as text, with every `@Test(` and its name on one
    /// line (a parameterised test's attribute is wrapped before its name).
    static let testSources: String = {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        return files.filter { $0.pathExtension == "swift" }
            .compactMap { try? String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
            .replacing(/@Test\(\s+"/, with: "@Test(\"")
    }()

    @Test("every rule has a test named after it", arguments: DeviceRule.allCases)
    func everyRuleIsTested(rule: DeviceRule) {
        #expect(Self.testSources.contains("@Test(\"\(rule.rawValue): "), "no test named after \(rule.rawValue)")
    }

    @Test("every rule names its API, its fact-sheet source and its evidence")
    func everyRuleIsSourced() {
        for rule in DeviceRule.allCases {
            let info = rule.info
            #expect(!info.summary.isEmpty && !info.models.isEmpty && !info.source.isEmpty, "\(rule)")
        }
    }

    @Test("the parameter catalogue lists exactly DeviceParameters' properties, with their current values")
    func parametersMatchTheStruct() {
        var parameters = DeviceParameters()
        parameters.whenInUseLockCutoffSeconds = 13
        let mirror = Mirror(reflecting: parameters)
        let properties = mirror.children.compactMap(\.label)
        let catalogue = parameters.catalogue
        #expect(catalogue.map(\.name) == properties)
        for (child, entry) in zip(mirror.children, catalogue) {
            let value = child.value
            if let number = value as? Double {
                #expect(Double(entry.value) == number, "\(entry.name)")
            } else if let integer = value as? Int {
                #expect(Int(entry.value) == integer, "\(entry.name)")
            } else if let flag = value as? Bool? {
                #expect(entry.value == (flag.map { String($0) } ?? "profile"), "\(entry.name)")
            } else {
                #expect(entry.value == "\(value)", "\(entry.name)")
            }
        }
        #expect(catalogue.first { $0.name == "whenInUseLockCutoffSeconds" }?.value == "13")
    }

    @Test("rules name only parameters that exist")
    func ruleParametersExist() {
        let names = Set(DeviceParameters().catalogue.map(\.name))
        for rule in DeviceRule.allCases {
            for parameter in rule.info.parameters { #expect(names.contains(parameter), "\(rule): \(parameter)") }
        }
    }

    @Test("the issue's required defaults are the catalogue's defaults")
    func requiredDefaults() {
        let values = Dictionary(uniqueKeysWithValues: DeviceParameters().catalogue.map { ($0.name, $0.value) })
        #expect(values["whenInUseLockCutoffSeconds"] == "70")
        #expect(values["maximumMonitoredRegions"] == "20")
        // Issue 31 calibrated the exit cushion to current iOS (#2353, #2597) and added the miss rate.
        #expect(values["regionCushionMeters"] == "50")
        #expect(values["regionMissProbability"] == "0.07")
        #expect(values["regionDwellSeconds"] == "20")
        #expect(values["reducedFixesPerHour"] == "4")
        #expect(values["reducedHorizontalAccuracyMeters"] == "2500")
        #expect(values["wakeWindowSeconds"] == "10")
    }
}
