import Foundation
import SimulationCore

/// Seeded configuration files as users write them, at the sizes that were slow when every
/// parsed value counted its line from the start of the file: many point fences, one polygon
/// with many vertices, and a scenario with a long timeline. Pretty-printed, one value a line
/// where people would put one, so lines are short and many.
public enum ConfigGenerator {
    /// A kind of configuration input.
    public enum Kind: String, CaseIterable, Sendable {
        /// A GeoJSON FeatureCollection of `count` Point features with radii.
        case pointFences = "point-fences"
        /// A GeoJSON Feature: one Polygon whose ring has `count` vertices (plus the closing one).
        case polygon
        /// A scenario whose timeline has `count` events.
        case timeline

        /// What a count of this kind is called in the report.
        public var unit: String {
            switch self {
            case .pointFences: "point fences"
            case .polygon: "polygon vertices"
            case .timeline: "timeline events"
            }
        }
    }

    /// The file's text.
    public static func render(_ kind: Kind, count: Int, seed: UInt64) -> String {
        var random = SplitMix64(seed: seed)
        var text = ""
        switch kind {
        case .pointFences:
            text += "{\n  \"type\": \"FeatureCollection\",\n  \"features\": [\n"
            for index in 0..<count {
                let latitude = random.uniform(37.3...37.5)
                let longitude = random.uniform(-122.2 ... -122.0)
                let radius = Int(random.uniform(50...500))
                text += "    {\n      \"type\": \"Feature\",\n      \"id\": \"f\(index)\",\n"
                text += "      \"properties\": {\"radius\": \(radius), \"notifyOnDwell\": \(index % 2 == 0)},\n"
                text += "      \"geometry\": {\"type\": \"Point\", \"coordinates\": [\(longitude), \(latitude)]}\n"
                text += "    }\(index == count - 1 ? "" : ",")\n"
            }
            text += "  ]\n}\n"
        case .polygon:
            text += "{\n  \"type\": \"Feature\",\n  \"id\": \"outline\",\n  \"properties\": {},\n"
            text += "  \"geometry\": {\n    \"type\": \"Polygon\",\n    \"coordinates\": [[\n"
            var first = ""
            for index in 0..<count {
                // A star-shaped ring: every radius positive, angles increasing, so it is simple.
                let angle = Double(index) / Double(count) * 2 * Double.pi
                let radius = random.uniform(0.05...0.06)
                let position = "[\(-122.1 + radius * cos(angle)), \(37.4 + radius * sin(angle))]"
                if index == 0 { first = position }
                text += "      \(position),\n"
            }
            text += "      \(first)\n    ]]\n  }\n}\n"
        case .timeline:
            let events = ["lock", "unlock", "background", "foreground"]
            text += "{\n  \"name\": \"long-day\",\n  \"timeline\": [\n"
            for index in 0..<count {
                let at = Double(index) * 2 + random.uniform(0...1)
                text += "    {\"at\": \(at), \"event\": \"\(events[index % events.count])\"}"
                text += index == count - 1 ? "\n" : ",\n"
            }
            text += "  ],\n  \"seed\": 7\n}\n"
        }
        return text
    }
}
