// One import for a program that embeds TraceSim: `import TraceSim` brings every library
// product. Depend on a single product instead (`Traces`, `Device`, `Scenarios`, `Reports`…)
// to build less.
@_exported import ConfigJSON
@_exported import Device
@_exported import Engine
@_exported import EngineProtocol
@_exported import Fleet
@_exported import Geometry
@_exported import Permissions
@_exported import Reports
@_exported import Scenarios
@_exported import SimulationCore
@_exported import Traces
