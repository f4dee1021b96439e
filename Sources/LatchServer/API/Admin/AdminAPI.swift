import Foundation
import LatchHTTP

/// The admin adapter: bearer-token endpoints for operators and development tools. Today: the
/// outbox reader (`GET /{tenant}/admin/outbox?to=&limit=&failed=`, `failed=true` for the dead
/// letters only) and audit events
/// (`GET /{tenant}/admin/audit?limit=`). The root admin token opens every tenant's paths; a scoped
/// token only its own tenant's (``AdminAuthenticator``).
struct AdminAPI: Sendable {
    let services: AuthServices
    let authenticator: AdminAuthenticator
    /// Whether one-time codes are shown (development only).
    let revealCodes: Bool
    let log: ServerLog
    let renderer = AdminRenderer()

    /// Adds the group and its routes to `router`.
    func register(in router: inout Router) {
        router.addGroup("admin", prefixes: ["/{tenant}/admin"], renderer: renderer)
        let api = self
        router.add("GET", "/{tenant}/admin/outbox") { request in
            api.authorized(request) { tenant in
                let limit = min(max(Int(request.query["limit"] ?? "") ?? 20, 1), 500)
                let messages = try services.admin.outbox(
                    tenant: tenant, recipient: request.query["to"],
                    abandonedOnly: ["1", "true"].contains(request.query["failed"] ?? ""), limit: limit,
                    revealCodes: api.revealCodes)
                return JSONBody.ok([
                    "messages": messages.map { message -> [String: any Sendable] in
                        var item: [String: any Sendable] = [
                            "id": message.id, "channel": message.channel, "to": message.recipient,
                            "subject": message.subject, "body": message.body,
                            "created_at": Int(message.createdAt.timeIntervalSince1970),
                        ]
                        if let code = message.code { item["code"] = code }
                        item["attempts"] = message.attempts
                        if let lastError = message.lastError { item["last_error"] = lastError }
                        return item
                    }
                ])
            }
        }
        router.add("GET", "/{tenant}/admin/audit") { request in
            api.authorized(request) { tenant in
                let limit = min(max(Int(request.query["limit"] ?? "") ?? 50, 1), 500)
                let events = try services.admin.auditEvents(tenant: tenant, limit: limit)
                return JSONBody.ok([
                    "events": events.map { event -> [String: any Sendable] in
                        [
                            "id": event.id, "kind": event.kind.rawValue, "at": Int(event.at.timeIntervalSince1970),
                            "user_id": event.userID ?? "", "client_id": event.clientID ?? "",
                            "remote_address": event.remoteAddress ?? "", "detail": event.detail ?? "",
                        ]
                    }
                ])
            }
        }
    }

    /// Runs `body` for the tenant the path names when the bearer token opens it; otherwise answers
    /// 401 or 403 as RFC 6750 § 3.1 has it.
    private func authorized(_ request: HTTPRequest, _ body: (Tenant) throws -> HTTPResponse) -> HTTPResponse {
        let tenantName = request.pathParameters["tenant"] ?? ""
        do {
            switch try authenticator.access(bearer: Self.bearerCredential(of: request), tenantName: tenantName) {
            case .everyTenant:
                return try body(try services.directory.tenant(named: tenantName))
            case .tenant(let tenant, _):
                return try body(tenant)
            case .missingToken:
                return renderer.unauthorized(tokenPresented: false)
            case .invalidToken:
                return renderer.unauthorized(tokenPresented: true)
            case .insufficientScope(let tokenID):
                log.warning("admin token used outside its tenant", [("admin_token_id", tokenID)], request: request)
                return renderer.insufficientScope()
            }
        } catch let failure as AuthFailure {
            return renderer.render(failure, for: request)
        } catch {
            if let outage = StoreOutage.httpError(for: error) {
                StoreOutage.log(error, log, request: request)
                return renderer.render(outage, for: request)
            }
            log.error("admin request failed", [("error", "\(error)")], request: request)
            return renderer.serverError(for: request)
        }
    }

    /// The credential of an `Authorization: Bearer` header (RFC 6750 § 2.1; the scheme is
    /// case-insensitive), or `nil` when the request has none or uses another scheme.
    private static func bearerCredential(of request: HTTPRequest) -> String? {
        guard let header = request.headers["Authorization"], header.lowercased().hasPrefix("bearer ") else { return nil }
        return String(header.dropFirst(7))
    }
}
