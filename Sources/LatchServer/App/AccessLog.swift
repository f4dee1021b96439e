import LatchHTTP

/// One log line per state-changing request (every method but `GET` and `HEAD`) and per server
/// failure, with the request's ids, tenant, route, status and duration. Reads are not logged one
/// by one (they are counted in `/metrics`), so a flood of them cannot flood the log.
enum AccessLog {
    static func record(_ observation: RouteObservation, in log: ServerLog) {
        let status = observation.response.status
        let method = observation.request.method
        guard status >= 500 || (method != "GET" && method != "HEAD") else { return }
        let fields: [(String, String)] = [
            ("method", Metrics.methodLabel(method)), ("status", String(status)),
            ("ms", String(Int((observation.seconds * 1000).rounded()))),
        ]
        log.write(status >= 500 ? .error : .info, "request", fields, request: observation.request)
    }
}
