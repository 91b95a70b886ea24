// The whole TraceSim command line for the trip tracker in TripTracker/, an engine written
// against Core Location:
//
//     swift run --package-path Examples trip-tracker matrix Traces/FILE ...
//     swift run --package-path Examples trip-tracker replay Traces/FILE --scenario always-precise --format html
//
// Every run makes a fresh record (AppRecord, which outlives relaunches) and an app
// whose launch creates the tracker, as an iOS app's delegate does at every launch.
import TraceSimCLI
import TraceSimCoreLocation
import TripTracker

TraceSimCommandLine.main(
    engine: .custom(named: "trip-tracker") { context in
        let record = AppRecord(expectedFixCount: context.expectedFixCount)
        return CoreLocationApp(recording: record) { TripTracker(store: RecordingStore(record: record)) }
    })
