import Foundation
import LatchHTTP

/// Liveness (`/healthz`), readiness (`/readyz`: the store answers) and `/metrics` (Prometheus text).
struct OperationsAPI: Sendable {
    let services: AuthServices
    let metrics: Metrics
    let isDraining: @Sendable () -> Bool
    /// Whether `/metrics` is served here (not when it moved to the admin listener).
    var servesMetrics = true

    /// Adds the group and its routes to `router`.
    func register(in router: inout Router) {
        router.addGroup("operations", prefixes: ["/healthz", "/readyz", "/metrics"], renderer: OperationsRenderer())
        router.add("GET", "/healthz") { _ in JSONBody.ok(["status": "ok"]) }
        let services = services
        let isDraining = isDraining
        router.add("GET", "/readyz") { _ in
            if isDraining() { return .json(503, JSONBody.object(["status": "draining"])) }
            do {
                _ = try services.store.read { try $0.tenant(named: "default") }
                return JSONBody.ok(["status": "ready"])
            } catch {
                return .json(503, JSONBody.object(["status": "store unavailable"]))
            }
        }
        guard servesMetrics else { return }
        let metrics = metrics
        router.add("GET", "/metrics") { _ in
            .text(200, metrics.render(), contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
    }
}
