/// A validated `scope` parameter (RFC 6749 § 3.3): space-delimited scope tokens of
/// `%x21 / %x23-5B / %x5D-7E`, order kept, duplicates dropped.
struct ScopeSet: Sendable, Equatable {
    /// Scopes defined by OpenID Connect Core § 5.4 and § 11, always allowed.
    static let openIDScopes: Set<String> = ["openid", "profile", "email", "offline_access"]

    let values: [String]
    /// Requested scopes the client may not have: left out of ``values`` rather than refused, so
    /// the token response lists what was granted and the client can tell what was declined.
    let declined: [String]

    /// Parses and checks `text` against `client`'s allowed scopes; absent means `openid offline_access`.
    /// A scope the client may not have is declined, not refused.
    /// - Throws: ``AuthFailure/invalidScope(_:)`` for a malformed scope, or when nothing is left.
    init(_ text: String?, client: Client) throws {
        let requested = (text ?? "openid offline_access").split(separator: " ").map(String.init)
        var seen = Set<String>()
        var values: [String] = []
        var declined: [String] = []
        for scope in requested where seen.insert(scope).inserted {
            guard scope.utf8.count <= 256,
                scope.utf8.allSatisfy({ $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) })
            else { throw AuthFailure.invalidScope("scope contains characters RFC 6749 § 3.3 does not allow") }
            if !Self.openIDScopes.contains(scope), !client.allowedScopes.isEmpty,
                !client.allowedScopes.contains(scope)
            {
                declined.append(scope)
                continue
            }
            values.append(scope)
        }
        guard !values.isEmpty else {
            throw AuthFailure.invalidScope(
                declined.isEmpty ? "scope is empty" : "none of the requested scopes is allowed for this client")
        }
        self.values = values
        self.declined = declined
    }

    /// Restores stored scopes.
    init(stored: [String]) {
        values = stored
        declined = []
    }

    /// These scopes followed by those of `stored` not among them (scopes an earlier step of the
    /// same sign-in validated).
    func adding(_ stored: [String]) -> ScopeSet {
        ScopeSet(values: values + stored.filter { !values.contains($0) }, declined: declined.filter { !stored.contains($0) })
    }

    private init(values: [String], declined: [String]) {
        self.values = values
        self.declined = declined
    }

    func contains(_ scope: String) -> Bool { values.contains(scope) }
    var text: String { values.joined(separator: " ") }
}
