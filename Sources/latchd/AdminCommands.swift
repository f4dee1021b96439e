import Foundation
import LatchCrypto
import LatchServer

/// The `latchd` admin subcommands: tenants, clients, users, keys, outbox and audit, run against the
/// data directory directly (they work while the server runs).
enum AdminCommands {
    static let options: Set<String> = [
        "data-dir", "tenant", "id", "name", "email", "to", "limit", "algorithm", "require-attribute", "scope",
        "refresh-grace-seconds",
    ]

    static func run(_ command: String, _ arguments: Arguments) throws -> Int32 {
        let (admin, close) = try AdminConsole.open(dataDirectory: arguments.value("data-dir") ?? "./latch-data")
        defer { close() }
        let words = arguments.positional.dropFirst()
        let tenantName = arguments.value("tenant") ?? "default"
        switch (command, words.first) {
        case ("tenant", "create"?):
            guard let name = words.dropFirst().first ?? arguments.value("name") else { throw UsageError("tenant create NAME") }
            var settings = TenantSettings()
            settings.enumerationProtection = arguments.flag("enumeration-protection")
            settings.passwordRequiredOnSignUp = arguments.flag("require-password")
            settings.requiredAttributes = arguments.values("require-attribute").map { AttributeDefinition(name: $0) }
            if let grace = arguments.value("refresh-grace-seconds") {
                guard let seconds = Int(grace), (0...300).contains(seconds) else {
                    throw UsageError("--refresh-grace-seconds is 0 to 300")
                }
                settings.refreshReuseGraceSeconds = seconds
            }
            let tenant = try admin.createTenant(name: name, settings: settings)
            print("created tenant \(tenant.name) (id \(tenant.id))")
        case ("tenant", "list"?):
            for tenant in try admin.tenants() {
                print("\(tenant.name)\t\(tenant.id)\tenumeration_protection=\(tenant.settings.enumerationProtection)")
            }
        case ("client", "create"?):
            guard let id = arguments.value("id") ?? words.dropFirst().first else { throw UsageError("client create --id ID") }
            let tenant = try admin.tenant(named: tenantName)
            let client = try admin.createClient(
                tenant: tenant, id: id, name: arguments.value("name") ?? id,
                allowedScopes: arguments.values("scope"))
            print("created public client \(client.id) in tenant \(tenant.name)")
        case ("client", "list"?):
            for client in try admin.clients(tenant: try admin.tenant(named: tenantName)) {
                print("\(client.id)\t\(client.isPublic ? "public" : "confidential")\t\(client.name)")
            }
        case ("user", "create"?):
            guard let email = arguments.value("email") else { throw UsageError("user create --email ADDRESS [--password-stdin]") }
            let password = arguments.flag("password-stdin") ? readLine(strippingNewline: true) : nil
            let user = try admin.createUser(
                tenant: try admin.tenant(named: tenantName), email: email, password: password,
                displayName: arguments.value("name"))
            print("created user \(user.email) (id \(user.id))")
        case ("user", "list"?):
            for user in try admin.users(tenant: try admin.tenant(named: tenantName)) {
                print("\(user.email)\t\(user.id)\tpassword=\(user.passwordHash != nil)\tdisabled=\(user.disabled)")
            }
        case ("keys", "list"?):
            for key in try admin.signingKeys(tenant: try admin.tenant(named: tenantName)) {
                let state = key.retiredAt.map { "superseded \(iso($0))" } ?? "signing from \(iso(key.activatesAt))"
                print("\(key.id)\t\(key.algorithm)\tcreated \(iso(key.createdAt))\t\(state)")
            }
        case ("keys", "rotate"?):
            let name = arguments.value("algorithm") ?? "ES256"
            guard let algorithm = SigningAlgorithm(rawValue: name.uppercased()) else {
                throw UsageError("--algorithm is ES256 or RS256")
            }
            let key = try admin.rotateKey(
                tenant: try admin.tenant(named: tenantName), algorithm: algorithm, immediately: arguments.flag("now"))
            print("new signing key \(key.id) (\(key.algorithm)), published now, signing from \(iso(key.activatesAt));")
            print("previous keys stay published until the tokens they signed expire")
        case ("outbox", _):
            let limit = Int(arguments.value("limit") ?? "") ?? 10
            let tenant = arguments.value("tenant").map { try? admin.tenant(named: $0) } ?? nil
            for message in try admin.outbox(tenant: tenant, recipient: arguments.value("to"), limit: limit) {
                let state = message.deliveredAt == nil ? "pending" : "delivered"
                print(
                    "\(iso(message.createdAt))\tto=\(message.recipient)\tcode=\(message.code ?? "-")\t\(state)\t\(message.subject)"
                )
            }
        case ("audit", _):
            let limit = Int(arguments.value("limit") ?? "") ?? 20
            for event in try admin.auditEvents(tenant: try admin.tenant(named: tenantName), limit: limit) {
                print(
                    "\(iso(event.at))\t\(event.kind.rawValue)\tuser=\(event.userID ?? "-")\tclient=\(event.clientID ?? "-")\t\(event.detail ?? "")"
                )
            }
        default:
            throw UsageError("unknown command: \(([command] + words).joined(separator: " "))")
        }
        return 0
    }

    private static func iso(_ date: Date) -> String {
        ISO8601DateFormatter.string(from: date, timeZone: .gmt, formatOptions: [.withInternetDateTime])
    }
}
