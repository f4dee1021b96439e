/// The check that a token response granted the scopes asked for (MSAL's "server declined scopes").
enum DeclinedScopes {
    /// Scopes every sign-in and refresh may carry, which are never counted as declined.
    static let openID: [String] = ["openid", "profile", "offline_access"]

    /// `scopes` followed by the OpenID Connect scopes it lacks (`openid profile offline_access`),
    /// as MSAL sends on every native `/token` call.
    static func withOpenID(_ scopes: [String]) -> [String] {
        var all: [String] = []
        for scope in scopes + openID where !all.contains(scope) { all.append(scope) }
        return all
    }

    /// Throws when `granted` (the response's space-separated `scope`) lacks some of `requested`,
    /// OpenID Connect scopes aside. An absent `scope` grants what was asked (RFC 6749 § 5.1).
    /// - Throws: ``LatchError/Code/serverDeclinedScopes`` with both lists.
    static func check(requested: [String], granted: String?) throws {
        guard let granted else { return }
        let grantedScopes = granted.split(separator: " ").map(String.init)
        var declined: [String] = []
        for scope in requested where !openID.contains(scope) && !grantedScopes.contains(scope) && !declined.contains(scope) {
            declined.append(scope)
        }
        guard !declined.isEmpty else { return }
        throw LatchError(
            code: .serverDeclinedScopes,
            message: "The server did not grant \(declined.joined(separator: " ")); the tokens for the granted scopes are stored.",
            grantedScopes: grantedScopes, declinedScopes: declined)
    }
}
