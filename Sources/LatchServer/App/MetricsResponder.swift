import Foundation
import LatchHTTP

/// Wraps the router: times every request and counts it by route, method and status. Routes are
/// labelled by their pattern (the tenant segment becomes `{tenant}`); unmatched paths share one
/// label, so label cardinality stays bounded whatever clients send.
struct MetricsResponder: HTTPResponder {
    let next: any HTTPResponder
    let metrics: Metrics
    let clock: any ServerClock

    func respond(to request: HTTPRequest) -> HTTPResponse {
        let start = DispatchTime.now().uptimeNanoseconds
        let response = next.respond(to: request)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        metrics.record(
            route: Self.label(request.path, status: response.status), method: Self.method(request.method),
            status: response.status, seconds: seconds)
        return response
    }

    /// A request the HTTP layer refused (body or head too large): rendered in the native-auth
    /// error envelope, which every form endpoint speaks, and counted like any other.
    func respond(to request: HTTPRequest, refusedWith error: HTTPError) -> HTTPResponse {
        let response = NativeAuthErrorTable.response(for: error, context: WireContext(request), now: clock.now())
        // Refused before routing: the path may be anything, so it never becomes a label.
        metrics.record(route: "refused", method: Self.method(request.method), status: response.status, seconds: 0)
        return response
    }

    /// The method label: one of the methods the server routes, else `OTHER`.
    static func method(_ method: String) -> String {
        ["GET", "POST", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS"].contains(method) ? method : "OTHER"
    }

    static func label(_ path: String, status: Int) -> String {
        if status == 404 { return "unmatched" }
        switch path {
        case "/healthz", "/readyz", "/metrics": return path
        default:
            guard let slash = path.dropFirst().firstIndex(of: "/") else { return "unmatched" }
            return "/{tenant}" + path[slash...]
        }
    }
}
