import Scenarios

extension HTMLReport {
    /// The warnings against the trace (`TraceWarning`) as a banner at the top of a page, one
    /// line each; nothing without warnings, so a page with none is unchanged.
    static func warningsBanner(_ warnings: [TraceWarning]) -> String {
        guard !warnings.isEmpty else { return "" }
        return "<div class=\"warnings\" role=\"alert\"><strong>Warning</strong><ul>"
            + TraceWarningReport.sorted(warnings).map {
                "<li>\(TraceWarningReport.mark($0) == "ERROR" ? "<strong>Error:</strong> " : "")"
                    + "\(escape(TraceWarningReport.message($0)))</li>"
            }.joined() + "</ul></div>\n"
    }
}
