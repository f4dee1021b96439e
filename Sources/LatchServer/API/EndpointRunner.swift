import Foundation
import LatchHTTP

/// Runs one form-encoded endpoint: parses the body, resolves the tenant and client, calls the
/// domain, and renders any failure through ``NativeAuthErrorTable``. The only place where native-auth
/// and token endpoints turn errors into responses.
struct EndpointRunner: Sendable {
    let services: AuthServices
    let log: ServerLog

    /// The parsed request handed to an endpoint body.
    struct Call {
        let form: [String: String]
        let context: ClientContext
        let request: HTTPRequest
    }

    /// Handles `request` with `body`, which returns the success response.
    func run(_ request: HTTPRequest, _ body: (Call) throws -> HTTPResponse) -> HTTPResponse {
        let wire = WireContext(request)
        let now = services.clock.now()
        do {
            let form = try request.formParameters()
            let tenant = try services.directory.tenant(named: request.pathParameters["tenant"] ?? "")
            let client = try services.directory.client(id: form["client_id"], in: tenant)
            let context = ClientContext(tenant: tenant, client: client, remoteAddress: request.remoteAddress)
            return try body(Call(form: form, context: context, request: request))
        } catch let error as HTTPError {
            return NativeAuthErrorTable.response(for: error, context: wire, now: now)
        } catch let failure as AuthFailure {
            return NativeAuthErrorTable.response(for: failure, context: wire, now: now)
        } catch {
            log.error("request \(wire.traceID) \(request.method) \(request.routePattern ?? request.path) failed: \(error)")
            return NativeAuthErrorTable.serverError(context: wire, now: now)
        }
    }
}
