import SimulationCore

/// The app's calls: authorization requests and starting or stopping services.
extension Device {
    mutating func handleRequest(_ request: AppRequest, at now: SimInstant, into actions: inout [DeviceAction]) {
        switch request {
        case .requestedWhenInUse:
            authorize(.whenInUseRequested, at: now, into: &actions)
        case .requestedAlways:
            authorize(.alwaysRequested, at: now, into: &actions)
        case .requestedTemporaryFullAccuracy(let purpose):
            authorize(.temporaryFullAccuracyRequested(purpose: purpose), at: now, into: &actions)
        case .startedMotionUpdates:
            lifecycle.motionUpdatesStarted()
            authorize(.motionRequested, at: now, into: &actions)
        case .createdCentralManager:
            authorize(.centralManagerCreated, at: now, into: &actions)
        case .startedLocationUpdates(let options):
            startUpdates(options, at: now, into: &actions)
        case .stoppedLocationUpdates:
            lifecycle.locationUpdatesStopped()
        case .startedMonitoring(let region):
            if let rule = regionRefusal(at: now) ?? regions.register(region, limit: parameters.maximumMonitoredRegions)
            {
                actions.append(.regionMonitoringFailed(identifier: region.identifier, rule))
            }
        case .stoppedMonitoring(let identifier):
            regions.remove(identifier)
        case .startedSignificantChanges:
            if let rule = serviceRefusal(at: now) {
                actions.append(.significantChangeDropped(rule))
            } else {
                significantChanges.start()
            }
        case .stoppedSignificantChanges:
            significantChanges.stop()
        case .startedVisitMonitoring:
            if let rule = serviceRefusal(at: now) {
                actions.append(.visitDropped(rule))
            } else {
                visits.start()
            }
        case .stoppedVisitMonitoring:
            visits.stop()
        case .startedBackgroundSession:
            // Models CLBackgroundActivitySession: only while in use, with the background mode,
            // under an effective authorization (a4 #8).
            if authorization.state.status.isAuthorized { lifecycle.activitySessionStarted(at: now) }
        case .endedBackgroundSession:
            lifecycle.activitySessionEnded()
        }
    }

    private mutating func startUpdates(
        _ options: LocationUpdateOptions, at now: SimInstant, into actions: inout [DeviceAction]
    ) {
        if options.allowsBackgroundLocationUpdates && !authorization.infoPlist.hasLocationBackgroundMode {
            perform(lifecycle.systemTerminatedApp(for: .backgroundUpdatesWithoutModeCrash), at: now, into: &actions)
            return
        }
        let status = authorization.state.status
        if status == .denied || status == .restricted {
            actions.append(
                .locationUpdatesFailed(
                    authorization.state.isLocationServicesEnabled
                        ? .noDeliveryWithoutAuthorization : .servicesOffReportsDenied))
            return
        }
        if status == .authorizedWhenInUse && !isInUse(at: now) {
            actions.append(.locationUpdatesFailed(.startingUpdatesInBackgroundFails))
            return
        }
        lifecycle.locationUpdatesStarted(options, at: now)
        autoPause.reset()
    }

    /// Why a region cannot be registered now, if it cannot.
    private func regionRefusal(at now: SimInstant) -> DeviceRule? {
        if authorization.state.accuracy == .reducedAccuracy { return .regionUnavailableWithReducedAccuracy }
        return serviceRefusal(at: now)
    }

    /// Models regions and significant change needing Always, or When-In-Use in use (a5 #8).
    private func serviceRefusal(at now: SimInstant) -> DeviceRule? {
        switch authorization.state.status {
        case .authorizedAlways: return nil
        case .authorizedWhenInUse: return isInUse(at: now) ? nil : .regionRequiresAuthorization
        case .notDetermined, .restricted, .denied: return .regionRequiresAuthorization
        }
    }
}
