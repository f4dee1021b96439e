import Foundation
import LatchCrypto
import LatchServer

/// The `latchd` admin subcommands: tenants, clients, users, keys, admin tokens, outbox and audit,
/// run against the data directory directly (they work while the server runs).
enum AdminCommands {
    /// Runs `command` (one of the admin commands of ``CommandSpec/all``) with its parsed `arguments`.
    /// - Throws: ``UsageError`` for a missing or malformed value, checked before the data directory
    ///   is opened; otherwise what the admin console throws.
    static func run(_ command: CommandSpec, _ arguments: Arguments) throws -> Int32 {
        let limit = try positiveNumber(arguments, "limit")
        let tenantName = arguments.value("tenant") ?? "default"
        switch command.name {
        case "tenant create":
            guard let name = arguments.operands.first ?? arguments.value("name") else {
                throw UsageError("'tenant create' needs a NAME")
            }
            var settings = TenantSettings()
            settings.enumerationProtection = arguments.flag("enumeration-protection")
            settings.passwordRequiredOnSignUp = arguments.flag("require-password")
            settings.requiredAttributes = arguments.values("require-attribute").map { AttributeDefinition(name: $0) }
            try applyChangeableSettings(arguments, to: &settings)
            try MFAOptions.changes(arguments)(&settings.mfa)
            try withConsole(arguments) { admin in
                let tenant = try admin.createTenant(name: name, settings: settings)
                print("created tenant \(tenant.name) (id \(tenant.id))")
                if tenant.settings.mfa != MFASettings() { MFAOptions.describe(tenant.settings.mfa).forEach { print($0) } }
            }
        case "tenant update":
            guard let name = arguments.operands.first else { throw UsageError("'tenant update' needs a NAME") }
            var changes = TenantSettings()
            try applyChangeableSettings(arguments, to: &changes)
            let grace = arguments.value("refresh-grace-seconds") != nil
            let anonymous = arguments.value("anonymous-sign-in") != nil
            let recent = arguments.value("recent-sign-in-seconds") != nil
            let limits = try rateLimits(arguments)
            let mfa = try MFAOptions.changes(arguments)
            let branding = try brandingChanges(arguments)
            let emailFrom = try arguments.value("email-from").map { text -> String? in
                if text.isEmpty { return nil }
                guard MailAddress(parsing: text) != nil else {
                    throw UsageError("--email-from takes addr@example.com or 'Name <addr@example.com>'")
                }
                return text
            }
            let sessionSeconds = try arguments.value("browser-session-seconds").map { text in
                guard let seconds = Int(text), (60...31_536_000).contains(seconds) else {
                    throw UsageError("--browser-session-seconds takes 60 to 31536000")
                }
                return seconds
            }
            try withConsole(arguments) { admin in
                let tenant = try admin.updateTenant(named: name) { settings in
                    branding(&settings.branding)
                    if let emailFrom { settings.emailFrom = emailFrom }
                    if let sessionSeconds { settings.browserSessionLifetime = sessionSeconds }
                    if grace { settings.refreshReuseGraceSeconds = changes.refreshReuseGraceSeconds }
                    if anonymous { settings.anonymousSignIn = changes.anonymousSignIn }
                    if recent { settings.recentSignInSeconds = changes.recentSignInSeconds }
                    for (kind, limit) in limits { settings.rateLimits[kind] = limit }
                    mfa(&settings.mfa)
                }
                print("updated tenant \(tenant.name)")
                for kind in RateLimitKind.allCases {
                    print("rate limit \(kind.rawValue): \(tenant.settings.rateLimits[kind].description) per source")
                }
                MFAOptions.describe(tenant.settings.mfa).forEach { print($0) }
            }
        case "tenant list":
            try withConsole(arguments) { admin in
                for tenant in try admin.tenants() {
                    print("\(tenant.name)\t\(tenant.id)\tenumeration_protection=\(tenant.settings.enumerationProtection)")
                }
            }
        case "client create":
            guard let id = arguments.value("id") else { throw UsageError("'client create' needs '--id ID'") }
            let jwks = try ClientKeyOptions.jwks(arguments)
            if jwks != nil, arguments.flag("confidential") {
                throw UsageError("'client create' takes '--confidential' (a secret) or '--jwks FILE' (private_key_jwt), not both")
            }
            try withConsole(arguments) { admin in
                let tenant = try admin.tenant(named: tenantName)
                let registration = ClientRegistration(
                    redirectURIs: arguments.values("redirect-uri"), grantTypes: arguments.values("grant-type"),
                    thirdParty: arguments.flag("third-party"),
                    postLogoutRedirectURIs: arguments.values("post-logout-redirect-uri"))
                if let jwks {
                    let client = try admin.createKeyClient(
                        tenant: tenant, id: id, name: arguments.value("name") ?? id, jwks: jwks,
                        allowedScopes: arguments.values("scope"), apiKey: arguments.value("api-key"),
                        registration: registration)
                    print("created confidential client \(client.id) in tenant \(tenant.name)")
                    print(ClientKeyOptions.describe(jwks))
                    return
                }
                if arguments.flag("confidential") {
                    let (client, secret) = try admin.createConfidentialClient(
                        tenant: tenant, id: id, name: arguments.value("name") ?? id,
                        allowedScopes: arguments.values("scope"), apiKey: arguments.value("api-key"),
                        registration: registration)
                    print("created confidential client \(client.id) in tenant \(tenant.name)")
                    print("client secret (shown once, store it now): \(secret)")
                    return
                }
                let client = try admin.createClient(
                    tenant: tenant, id: id, name: arguments.value("name") ?? id,
                    allowedScopes: arguments.values("scope"), attestationKeyIDs: arguments.values("attestation-key"),
                    apiKey: arguments.value("api-key"), registration: registration)
                print("created public client \(client.id) in tenant \(tenant.name)")
                print("api key: \(client.apiKey)")
                if !client.attestationKeyIDs.isEmpty {
                    print("protection policy app_attestation: \(client.attestationKeyIDs.count) key id(s)")
                }
            }
        case "client rotate-secret":
            guard let id = arguments.value("id") else { throw UsageError("'client rotate-secret' needs '--id ID'") }
            try withConsole(arguments) { admin in
                let tenant = try admin.tenant(named: tenantName)
                let secret = try admin.rotateClientSecret(tenant: tenant, id: id)
                print("rotated the secret of confidential client \(id) in tenant \(tenant.name)")
                print("client secret (shown once, store it now): \(secret)")
            }
        case "client set-jwks":
            guard let id = arguments.value("id") else { throw UsageError("'client set-jwks' needs '--id ID'") }
            guard let jwks = try ClientKeyOptions.jwks(arguments) else {
                throw UsageError("'client set-jwks' needs '--jwks FILE'")
            }
            try withConsole(arguments) { admin in
                let tenant = try admin.tenant(named: tenantName)
                try admin.setClientKeys(tenant: tenant, id: id, jwks: jwks)
                print("replaced the keys of confidential client \(id) in tenant \(tenant.name)")
                print(ClientKeyOptions.describe(jwks))
            }
        case "client list":
            try withConsole(arguments) { admin in
                for client in try admin.clients(tenant: try admin.tenant(named: tenantName)) {
                    let party = client.thirdParty ? "third-party" : "first-party"
                    print(
                        "\(client.id)\t\(client.isPublic ? "public" : "confidential")\t\(party)\t\(client.name)"
                            + "\tgrants=\(client.effectiveGrantTypes.sorted().joined(separator: ","))"
                            + "\tredirect_uris=\(client.redirectURIs.joined(separator: ","))")
                }
            }
        case "user create":
            guard let email = arguments.value("email") else { throw UsageError("'user create' needs '--email ADDRESS'") }
            try withConsole(arguments) { admin in
                let password = arguments.flag("password-stdin") ? readLine(strippingNewline: true) : nil
                let user = try admin.createUser(
                    tenant: try admin.tenant(named: tenantName), email: email, password: password,
                    displayName: arguments.value("name"))
                print("created user \(user.email) (id \(user.id))")
            }
        case "user list":
            try withConsole(arguments) { admin in
                for user in try admin.users(tenant: try admin.tenant(named: tenantName)) {
                    print(
                        "\(TerminalText.escaped(user.email))\t\(user.id)\tpassword=\(user.passwordHash != nil)"
                            + "\tdisabled=\(user.disabled)")
                }
            }
        case "keys list":
            try withConsole(arguments) { admin in
                for key in try admin.signingKeys(tenant: try admin.tenant(named: tenantName)) {
                    let state = key.retiredAt.map { "superseded \(iso($0))" } ?? "signing from \(iso(key.activatesAt))"
                    print("\(key.id)\t\(key.algorithm)\tcreated \(iso(key.createdAt))\t\(state)")
                }
            }
        case "keys rotate":
            let name = arguments.value("algorithm") ?? "ES256"
            guard let algorithm = SigningAlgorithm(rawValue: name.uppercased()) else {
                throw UsageError("option '--algorithm' is ES256 or RS256, not '\(name)'")
            }
            try withConsole(arguments) { admin in
                let key = try admin.rotateKey(
                    tenant: try admin.tenant(named: tenantName), algorithm: algorithm, immediately: arguments.flag("now"))
                print("new signing key \(key.id) (\(key.algorithm)), published now, signing from \(iso(key.activatesAt));")
                print("previous keys stay published until the tokens they signed expire")
            }
        case "keys revoke":
            guard let kid = arguments.operands.first else { throw UsageError("keys revoke needs the KID to revoke") }
            try withConsole(arguments) { admin in
                let signer = try admin.revokeKey(tenant: try admin.tenant(named: tenantName), kid: kid)
                print("revoked signing key \(kid): no longer published or accepted; tokens it signed stop working")
                print("signing key now: \(signer.id) (\(signer.algorithm))")
            }
        case "admin-token create":
            guard let name = arguments.value("tenant") else { throw UsageError("'admin-token create' needs '--tenant T'") }
            let label = arguments.value("name") ?? ""
            guard label.count <= AdminToken.maximumLabelLength else {
                throw UsageError("option '--name' is at most \(AdminToken.maximumLabelLength) characters")
            }
            try withConsole(arguments) { admin in
                let tenant = try admin.tenant(named: name)
                let (token, secret) = try admin.createAdminToken(tenant: tenant, label: label)
                // The secret alone on standard output, so `TOKEN=$(latchd admin-token create ...)` works.
                FileHandleOutput.standardError(
                    "created admin token \(token.id) for tenant \(tenant.name); it is shown once, only its hash is kept\n")
                print(secret)
            }
        case "admin-token list":
            try withConsole(arguments) { admin in
                let names = Dictionary(try admin.tenants().map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
                let only = try arguments.value("tenant").map { try admin.tenant(named: $0) }
                for token in try admin.adminTokens(tenant: only) {
                    let state = token.revokedAt.map { "revoked \(iso($0))" } ?? "active"
                    print(
                        "\(token.id)\ttenant=\(names[token.tenantID] ?? token.tenantID)\tcreated \(iso(token.createdAt))"
                            + "\tlast used \(token.lastUsedAt.map(iso) ?? "never")\t\(state)\t\(TerminalText.escaped(token.label))"
                    )
                }
            }
        case "admin-token revoke":
            guard let id = arguments.operands.first else { throw UsageError("'admin-token revoke' needs the ID to revoke") }
            try withConsole(arguments) { admin in
                let (token, revokedNow) = try admin.revokeAdminToken(id: id)
                if revokedNow {
                    print("revoked admin token \(token.id): it opens nothing from the next request on, in running servers too")
                } else {
                    print("admin token \(token.id) was revoked already (\(token.revokedAt.map(iso) ?? "earlier"))")
                }
            }
        case "custom-token mint":
            guard let uid = arguments.value("uid") else { throw UsageError("'custom-token mint' needs '--uid UID'") }
            guard !uid.isEmpty, uid.count <= CustomTokenService.maximumUIDLength else {
                throw UsageError("option '--uid' is 1 to \(CustomTokenService.maximumUIDLength) characters")
            }
            let claims = try customClaims(arguments)
            try withConsole(arguments) { admin in
                // The token alone on standard output, so `TOKEN=$(latchd custom-token mint ...)` works.
                print(try admin.mintCustomToken(tenant: try admin.tenant(named: tenantName), uid: uid, claims: claims))
            }
        case "idp add", "idp list", "idp remove":
            try IdentityProviderCommands.run(command, arguments)
        case "outbox":
            try withConsole(arguments) { admin in
                let tenant = arguments.value("tenant").map { try? admin.tenant(named: $0) } ?? nil
                let messages = try admin.outbox(
                    tenant: tenant, recipient: arguments.value("to"), abandonedOnly: arguments.flag("failed"),
                    limit: limit ?? 10, revealCodes: arguments.flag("dev"))
                for message in messages { print(outboxLine(message)) }
            }
        case "audit":
            try withConsole(arguments) { admin in
                for event in try admin.auditEvents(tenant: try admin.tenant(named: tenantName), limit: limit ?? 20) {
                    print(
                        "\(iso(event.at))\t\(event.kind.rawValue)\tuser=\(event.userID ?? "-")\tclient=\(event.clientID ?? "-")\t\(TerminalText.escaped(event.detail ?? ""))"
                    )
                }
            }
        default:
            throw UsageError("unknown command '\(command.name)'")
        }
        return 0
    }

    /// One line of `latchd outbox`: created, `to=`, `code=`, state and subject (the columns scripts
    /// already read), then `channel=`, `attempts=`, `next_attempt=` while a retry waits, and
    /// `last_error=` once an attempt failed.
    private static func outboxLine(_ message: OutboxMessage) -> String {
        let state = message.deliveredAt != nil ? "delivered" : message.abandonedAt != nil ? "abandoned" : "pending"
        var line =
            "\(iso(message.createdAt))\tto=\(TerminalText.escaped(message.recipient))\tcode=\(message.code ?? "-")"
            + "\t\(state)\t\(TerminalText.escaped(message.subject))"
            + "\tchannel=\(TerminalText.escaped(message.channel))\tattempts=\(message.attempts)"
        if state == "pending", let next = message.nextAttemptAt { line += "\tnext_attempt=\(iso(next))" }
        if let lastError = message.lastError { line += "\tlast_error=\(TerminalText.escaped(lastError))" }
        return line
    }

    /// Applies the settings both `tenant create` and `tenant update` take: `--refresh-grace-seconds`,
    /// `--rate-limit`, `--anonymous-sign-in` and `--recent-sign-in-seconds`.
    private static func applyChangeableSettings(_ arguments: Arguments, to settings: inout TenantSettings) throws {
        if let grace = arguments.value("refresh-grace-seconds") {
            guard let seconds = Int(grace), (0...300).contains(seconds) else {
                throw UsageError("option '--refresh-grace-seconds' is 0 to 300, not '\(grace)'")
            }
            settings.refreshReuseGraceSeconds = seconds
        }
        for (kind, limit) in try rateLimits(arguments) { settings.rateLimits[kind] = limit }
        if let anonymous = arguments.value("anonymous-sign-in") {
            guard anonymous == "on" || anonymous == "off" else {
                throw UsageError("option '--anonymous-sign-in' is on or off, not '\(anonymous)'")
            }
            settings.anonymousSignIn = anonymous == "on"
        }
        if let recent = arguments.value("recent-sign-in-seconds") {
            guard let seconds = Int(recent), (1...86_400).contains(seconds) else {
                throw UsageError("option '--recent-sign-in-seconds' is 1 to 86400, not '\(recent)'")
            }
            settings.recentSignInSeconds = seconds
        }
    }

    /// The change `--brand-name`, `--brand-color` and `--logo-url` make to a tenant's branding,
    /// checked before the data directory is opened.
    private static func brandingChanges(_ arguments: Arguments) throws -> @Sendable (inout Branding) -> Void {
        let name = arguments.value("brand-name")
        let color = arguments.value("brand-color")
        let logo = arguments.value("logo-url")
        if let color, Branding(color: color).validColor == nil {
            throw UsageError("--brand-color takes #rrggbb, not '\(color)'")
        }
        if let logo, Branding(logoURL: logo).validLogoURL == nil {
            throw UsageError("--logo-url takes an https URL without quotes or spaces")
        }
        if let name, name.isEmpty || name.count > 100 { throw UsageError("--brand-name takes 1 to 100 characters") }
        return { branding in
            if let name { branding.displayName = name }
            if let color { branding.color = color }
            if let logo { branding.logoURL = logo }
        }
    }

    /// The `--rate-limit KIND=N/PERIOD` values, in order.
    private static func rateLimits(_ arguments: Arguments) throws -> [(RateLimitKind, RateLimit)] {
        try arguments.values("rate-limit").map { value in
            let parts = value.split(separator: "=", maxSplits: 1)
            let name = parts.first.map { $0.replacingOccurrences(of: "-", with: "_") } ?? ""
            guard parts.count == 2, let kind = RateLimitKind(rawValue: name), let limit = RateLimit(parsing: String(parts[1]))
            else {
                throw UsageError(
                    "option '--rate-limit' expects KIND=N/PERIOD (KIND flow-starts, code-sends, password-attempts, "
                        + "token-requests or user-code-guesses; PERIOD like 300, 5m or 1h), not '\(value)'")
            }
            return (kind, limit)
        }
    }

    /// The `--claims JSON` object of `custom-token mint`, checked for reserved names.
    private static func customClaims(_ arguments: Arguments) throws -> [String: any Sendable] {
        guard let text = arguments.value("claims") else { return [:] }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
            throw UsageError("option '--claims' expects a JSON object, not '\(text)'")
        }
        let reserved = object.keys.filter { CustomTokenService.reservedClaims.contains($0) }.sorted()
        guard reserved.isEmpty else {
            throw UsageError("option '--claims' may not use the reserved claim names \(reserved.joined(separator: ", "))")
        }
        return object.mapValues { CustomTokenService.sendable($0) }
    }

    /// Runs `body` with the admin console over `--data-dir` (default `./latch-data`) and the store
    /// `--database-url` or `LATCH_DATABASE_URL` names (default: the data directory's SQLite file),
    /// closed afterwards.
    static func withConsole(_ arguments: Arguments, _ body: (AdminService) throws -> Void) throws {
        let location = try StoreLocation(
            databaseURL: arguments.value("database-url") ?? ProcessInfo.processInfo.environment["LATCH_DATABASE_URL"])
        let (admin, close) = try AdminConsole.open(
            dataDirectory: arguments.value("data-dir") ?? "./latch-data", location: location)
        defer { close() }
        try body(admin)
    }

    /// The value of `--name` as a positive number, or `nil` when not given.
    private static func positiveNumber(_ arguments: Arguments, _ name: String) throws -> Int? {
        guard let value = arguments.value(name) else { return nil }
        guard let number = Int(value), number > 0 else {
            throw UsageError("option '--\(name)' expects a positive number, not '\(value)'")
        }
        return number
    }

    private static func iso(_ date: Date) -> String {
        ISO8601DateFormatter.string(from: date, timeZone: .gmt, formatOptions: [.withInternetDateTime])
    }
}
