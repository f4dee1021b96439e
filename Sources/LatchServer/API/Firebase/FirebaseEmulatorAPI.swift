import Foundation
import LatchHTTP

/// The Auth emulator's own endpoints (`reference/firebase-auth-protocol.md` § 7), served only in
/// emulator mode and, like the emulator's, without any credential:
/// `DELETE /emulator/v1/projects/{project}/accounts` (wipe the accounts),
/// `GET|PATCH …/config`, `GET …/oobCodes` and `GET …/verificationCodes`, each with a
/// `…/tenants/{tenant}/…` twin naming the same tenant. Failures leave through ``FirebaseRenderer``.
struct FirebaseEmulatorAPI: Sendable {
    let services: AuthServices
    let log: ServerLog

    static let projects = "/emulator/v1/projects/{project}"

    /// Adds the group and its routes to `router`.
    func register(in router: inout Router) {
        router.addGroup("firebase-emulator", prefixes: ["/emulator"], renderer: FirebaseRenderer())
        let admin = services.accountAdmin
        let directory = services.directory
        route(&router, "DELETE", "accounts") { tenant, _ in
            try admin.deleteAll(tenant: tenant)
            return JSONBody.ok([:])
        }
        route(&router, "GET", "config") { tenant, _ in Self.render(admin.emulatorConfiguration(tenant: tenant)) }
        route(&router, "PATCH", "config") { tenant, request in
            let body = try request.jsonObject()
            let signIn = body["signIn"] as? [String: any Sendable]
            let privacy = body["emailPrivacyConfig"] as? [String: any Sendable]
            let configuration = try admin.configureEmulator(
                allowDuplicateEmails: signIn?["allowDuplicateEmails"] as? Bool,
                enableImprovedEmailPrivacy: privacy?["enableImprovedEmailPrivacy"] as? Bool, tenant: tenant)
            directory.invalidate()
            return Self.render(configuration)
        }
        let outbox = services.admin
        route(&router, "GET", "oobCodes") { tenant, _ in
            // The codes mailed for the tenant, newest first, from the (development) outbox: the
            // store keeps only their hashes.
            let messages = try outbox.outbox(tenant: tenant, recipient: nil, limit: 1000)
            let codes: [any Sendable] = messages.compactMap { message -> [String: any Sendable]? in
                guard let code = message.code, let link = OobLink.find(in: message.body, code: code),
                    let kind = OobLink.kind(of: link)
                else { return nil }
                return [
                    "email": message.recipient, "oobCode": code, "oobLink": link,
                    "requestType": FirebaseAPI.requestType(of: kind),
                ]
            }
            return JSONBody.ok(["oobCodes": codes])
        }
        route(&router, "GET", "verificationCodes") { _, _ in JSONBody.ok(["verificationCodes": [any Sendable]()]) }
    }

    static func render(_ configuration: AccountAdministration.EmulatorConfiguration) -> HTTPResponse {
        JSONBody.ok([
            "signIn": ["allowDuplicateEmails": configuration.allowDuplicateEmails] as [String: any Sendable],
            "emailPrivacyConfig": ["enableImprovedEmailPrivacy": configuration.enableImprovedEmailPrivacy]
                as [String: any Sendable],
        ])
    }

    private func route(
        _ router: inout Router, _ method: String, _ name: String,
        _ body: @escaping @Sendable (Tenant, HTTPRequest) throws -> HTTPResponse
    ) {
        let api = self
        for pattern in [Self.projects + "/" + name, Self.projects + "/tenants/{tenant}/" + name] {
            router.add(method, pattern) { request in api.run(request, body) }
        }
    }

    private func run(_ request: HTTPRequest, _ body: (Tenant, HTTPRequest) throws -> HTTPResponse) -> HTTPResponse {
        do {
            let project = request.pathParameters["project"] ?? ""
            let tenant: Tenant
            do {
                tenant = try services.directory.tenant(named: project)
            } catch AuthFailure.unknownTenant {
                throw AuthFailure.accountAdministration(.unknownProject)
            }
            if let segment = request.pathParameters["tenant"], segment != tenant.name {
                throw AuthFailure.accountAdministration(.unknownTenant)
            }
            return try body(tenant, request)
        } catch let error as HTTPError {
            return FirebaseRenderer().render(error, for: request)
        } catch let failure as AuthFailure {
            return FirebaseRenderer().render(failure, tenant: nil, call: .other)
        } catch {
            if let outage = StoreOutage.httpError(for: error) {
                StoreOutage.log(error, log, request: request)
                return FirebaseRenderer().render(outage, for: request)
            }
            log.error("request failed", [("error", "\(error)")], request: request)
            return FirebaseRenderer().render(.internalServerError("internal error"), for: request)
        }
    }
}
