/// A validated `scope` parameter (RFC 6749 § 3.3): space-delimited scope tokens of
/// `%x21 / %x23-5B / %x5D-7E`, order kept, duplicates dropped.
struct ScopeSet: Sendable, Equatable {
    /// Scopes defined by OpenID Connect Core § 5.4 and § 11, always allowed.
    static let openIDScopes: Set<String> = ["openid", "profile", "email", "offline_access"]

    let values: [String]

    /// Parses and checks `text` against `client`'s allowed scopes; absent means `openid offline_access`.
    /// - Throws: ``AuthFailure/invalidScope(_:)``.
    init(_ text: String?, client: Client) throws {
        let requested = (text ?? "openid offline_access").split(separator: " ").map(String.init)
        var seen = Set<String>()
        var values: [String] = []
        for scope in requested where seen.insert(scope).inserted {
            guard scope.utf8.count <= 256,
                scope.utf8.allSatisfy({ $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) })
            else { throw AuthFailure.invalidScope("scope contains characters RFC 6749 § 3.3 does not allow") }
            if !Self.openIDScopes.contains(scope), !client.allowedScopes.isEmpty,
                !client.allowedScopes.contains(scope)
            {
                throw AuthFailure.invalidScope("scope '\(scope)' is not allowed for this client")
            }
            values.append(scope)
        }
        guard !values.isEmpty else { throw AuthFailure.invalidScope("scope is empty") }
        self.values = values
    }

    /// Restores stored scopes.
    init(stored: [String]) { values = stored }

    /// These scopes followed by those of `stored` not among them (scopes an earlier step of the
    /// same sign-in validated).
    func adding(_ stored: [String]) -> ScopeSet {
        ScopeSet(stored: values + stored.filter { !values.contains($0) })
    }

    func contains(_ scope: String) -> Bool { values.contains(scope) }
    var text: String { values.joined(separator: " ") }
}
