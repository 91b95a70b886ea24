extension HTMLReport {
    /// The frame every page shares: the title and one stylesheet for every section's classes,
    /// inline so the file stands alone.
    static func page(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
        <style>
        body{font:14px/1.45 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;margin:24px auto;max-width:940px;color:#222}
        h1{font-size:22px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 8px}.sub{color:#666;margin:0 0 16px}
        .cards{display:flex;gap:10px;flex-wrap:wrap}.card{border:1px solid #ddd;border-radius:6px;padding:8px 12px;min-width:120px}
        .card .v{font-size:18px;font-weight:600}.card .k{color:#666;font-size:12px}
        svg{width:100%;height:auto;display:block}
        .trace{fill:none;stroke:#bbb;stroke-width:1.5}.accepted{fill:#2e9e4f}.rejected{fill:#d64545}.missed{fill:#f0a030}.offtrace{fill:#8e24aa;stroke:#fff;stroke-width:.8}
        .fence{fill:rgba(60,110,220,.12);stroke:#3c6edc;stroke-width:1.5}
        .legend{color:#555;font-size:12px}.key{display:inline-block;width:10px;height:10px;border-radius:5px;margin:0 4px 0 12px}
        .key.accepted{background:#2e9e4f}.key.rejected{background:#d64545}.key.missed{background:#f0a030}.key.offtrace{background:#8e24aa}.key.fence{background:#3c6edc}
        .label{font-size:12px;text-anchor:end;fill:#333}.tick{font-size:11px;fill:#777}
        .phase-foreground{fill:#4caf50}.phase-background{fill:#8bc34a}.phase-suspended{fill:#78909c}
        .phase-notRunning{fill:#eee}.phase-terminatedBySystem{fill:#9e9e9e}.phase-forceQuit{fill:#37474f}
        .locked{fill:#5c6bc0}.moving{fill:#ff9800}.gps{fill:#1e88e5}.delivery{fill:#2e9e4f}
        .cutoff{stroke:#d64545;stroke-dasharray:4 3;stroke-width:1.5}.cutoff-label{font-size:11px;fill:#d64545}
        .frame{fill:#fff;stroke:#333;stroke-width:1.5}.frame.skipped{fill:#eee;stroke:#999}.frame.granted{fill:#e8f5e9}.frame.refused{fill:#fdecea}
        .frame-title{font-size:13px;font-weight:600}.frame-line{font-size:11px;fill:#333}
        .auth-authorizedAlways{fill:#2e7d32;background:#2e7d32}.auth-provisional{fill:#4db6ac;background:#4db6ac}
        .auth-authorizedWhenInUse{fill:#fdd835;background:#fdd835}.auth-notDetermined{fill:#bdbdbd;background:#bdbdbd}
        .auth-denied{fill:#d64545;background:#d64545}.auth-restricted{fill:#8e2424;background:#8e2424}
        .reduced{fill:#ab47bc;background:#ab47bc}.prompt{fill:#00acc1;background:#00acc1}.suppressed{fill:#90a4ae;background:#90a4ae}
        .wake{fill:#6d4c41;background:#6d4c41}.lapse{fill:#ff7043;background:#ff7043}.terminated{fill:#212121;background:#212121}
        .key.phase-foreground{background:#4caf50}.key.phase-background{background:#8bc34a}.key.phase-suspended{background:#78909c}.key.phase-forceQuit{background:#37474f}.key.phase-terminatedBySystem{background:#9e9e9e}.entry{white-space:nowrap}
        .drop{fill:#c62828;background:#c62828}.why code{font-size:12px}
        .key.locked{background:#5c6bc0}.key.moving{background:#ff9800}.key.gps{background:#1e88e5}.key.delivery{background:#2e9e4f}
        .formulas{color:#555;font-size:12px}
        .warnings{border:2px solid #d64545;background:#fdecea;color:#8e2424;border-radius:6px;padding:8px 12px;margin:8px 0 16px}.warnings ul{margin:4px 0 0;padding-left:20px}
        .head{font-size:12px;font-weight:600;text-anchor:middle}.value{font-size:12px;text-anchor:middle;fill:#111}
        </style></head><body>
        \(body)
        </body></html>
        """
    }
}
