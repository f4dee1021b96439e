import Foundation
import LatchServer

/// `latchd idp add | list | remove`: a tenant's OpenID Connect identity providers, whose ID tokens
/// sign accounts in at the account API's `signInWithIdp` / `verifyAssertion`.
enum IdentityProviderCommands {
    /// Runs one of the `idp` commands; every value is checked before the data directory is opened.
    /// - Throws: ``UsageError`` for a missing or malformed value (exit status 2).
    static func run(_ command: CommandSpec, _ arguments: Arguments) throws {
        guard let tenantName = arguments.value("tenant") else { throw UsageError("'\(command.name)' needs '--tenant T'") }
        switch command.name {
        case "idp add":
            let provider = try providerID(arguments, command)
            guard let issuer = arguments.value("issuer") else { throw UsageError("'idp add' needs '--issuer URL'") }
            guard IdentityProviderRules.isAcceptableURL(issuer) else {
                throw UsageError("option '--issuer' must be an https URL (http only on a loopback host), not '\(issuer)'")
            }
            guard let clientID = arguments.value("client-id"), !clientID.isEmpty else {
                throw UsageError("'idp add' needs '--client-id AUD'")
            }
            let (jwksURL, jwksJSON) = try jwks(arguments)
            try AdminCommands.withConsole(arguments) { admin in
                let tenant = try admin.tenant(named: tenantName)
                do {
                    let added = try admin.addIdentityProvider(
                        tenant: tenant, providerID: provider, issuer: issuer, clientID: clientID, jwksURL: jwksURL,
                        jwksJSON: jwksJSON, enabled: !arguments.flag("disabled"))
                    print("added identity provider \(added.providerID) to tenant \(tenant.name): \(describe(added))")
                } catch StoreError.conflict {
                    throw UsageError("tenant \(tenant.name) has an identity provider \(provider) already")
                }
            }
        case "idp list":
            try AdminCommands.withConsole(arguments) { admin in
                for provider in try admin.identityProviders(tenant: try admin.tenant(named: tenantName)) {
                    print("\(provider.providerID)\t\(describe(provider))")
                }
            }
        case "idp remove":
            let provider = try providerID(arguments, command)
            try AdminCommands.withConsole(arguments) { admin in
                let tenant = try admin.tenant(named: tenantName)
                guard try admin.removeIdentityProvider(tenant: tenant, providerID: provider) else {
                    throw UsageError("tenant \(tenant.name) has no identity provider \(provider) (see latchd idp list)")
                }
                print("removed identity provider \(provider) from tenant \(tenant.name); linked identities are kept")
            }
        default:
            throw UsageError("unknown command '\(command.name)'")
        }
    }

    private static func providerID(_ arguments: Arguments, _ command: CommandSpec) throws -> String {
        guard let id = arguments.value("provider-id") else {
            throw UsageError("'\(command.name)' needs '--provider-id oidc.NAME'")
        }
        guard IdentityProviderRules.isValidProviderID(id) else {
            throw UsageError(
                "option '--provider-id' is oidc. followed by letters, digits, '.', '_' or '-' (at most "
                    + "\(IdentityProviderRules.maximumProviderIDLength) characters), not '\(id)'")
        }
        return id
    }

    /// `--jwks-url` or the text of `--jwks-file`, which must hold a JWKS with an RS256 or ES256 key.
    private static func jwks(_ arguments: Arguments) throws -> (url: String?, json: String?) {
        switch (arguments.value("jwks-url"), arguments.value("jwks-file")) {
        case (let url?, nil):
            guard IdentityProviderRules.isAcceptableURL(url) else {
                throw UsageError("option '--jwks-url' must be an https URL (http only on a loopback host), not '\(url)'")
            }
            return (url, nil)
        case (nil, let path?):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw UsageError("option '--jwks-file': cannot read '\(path)'")
            }
            let text = String(decoding: data, as: UTF8.self)
            guard (try? ProviderKeySet.keys(of: text)) != nil else {
                throw UsageError(
                    "option '--jwks-file': '\(path)' is not a JWKS document ({\"keys\":[...]}) with an RS256 or ES256 "
                        + "signing key")
            }
            return (nil, text)
        case (nil, nil):
            throw UsageError("'idp add' needs '--jwks-file PATH' or '--jwks-url URL'")
        default:
            throw UsageError("'idp add' takes '--jwks-file PATH' or '--jwks-url URL', not both")
        }
    }

    private static func describe(_ provider: IdentityProvider) -> String {
        let keys = provider.jwksURL.map { "jwks_url=\($0)" } ?? "jwks=static"
        return "issuer=\(provider.issuer)\tclient_id=\(TerminalText.escaped(provider.clientID))\t\(keys)"
            + "\t\(provider.enabled ? "enabled" : "disabled")"
    }
}
