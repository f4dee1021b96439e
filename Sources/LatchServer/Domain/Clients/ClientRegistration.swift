/// What an operator registers about a client's browser flows (RFC 7591 § 2 names the fields):
/// its redirect URIs, the grant types it may use, whether it is a third party, and where logout
/// may send the browser back to.
public struct ClientRegistration: Sendable, Equatable {
    /// `redirect_uris`: each must pass ``RedirectURIRule/isRegistrable(_:)``.
    public var redirectURIs: [String]
    /// `grant_types`; empty registers the defaults of the client's kind.
    public var grantTypes: [String]
    /// A third-party client: users consent on the hosted page, and the native-auth grants are not
    /// among its defaults.
    public var thirdParty: Bool
    /// `post_logout_redirect_uris` (OpenID Connect RP-Initiated Logout 1.0 § 3.1).
    public var postLogoutRedirectURIs: [String]

    /// A registration; the defaults register nothing beyond the client's kind.
    public init(
        redirectURIs: [String] = [], grantTypes: [String] = [], thirdParty: Bool = false,
        postLogoutRedirectURIs: [String] = []
    ) {
        self.redirectURIs = redirectURIs
        self.grantTypes = grantTypes
        self.thirdParty = thirdParty
        self.postLogoutRedirectURIs = postLogoutRedirectURIs
    }

    /// Checks the registration for a client that is public or not.
    /// - Throws: ``AuthFailure/invalidParameter(_:)`` naming `redirectURI` for a URI that cannot be
    ///   registered, `grantType` for an unknown grant, `client_credentials` on a public client
    ///   (RFC 6749 § 4.4: confidential clients only), or a native-auth grant on a third party.
    func validate(isPublic: Bool) throws {
        guard (redirectURIs + postLogoutRedirectURIs).allSatisfy(RedirectURIRule.isRegistrable) else {
            throw AuthFailure.invalidParameter(.redirectURI)
        }
        for grant in grantTypes {
            guard GrantType.all.contains(grant) else { throw AuthFailure.invalidParameter(.grantType) }
            if grant == GrantType.clientCredentials, isPublic { throw AuthFailure.invalidParameter(.grantType) }
            if thirdParty, GrantType.nativeAuth.contains(grant) { throw AuthFailure.invalidParameter(.grantType) }
        }
    }

    /// Copies the registration onto `client`.
    func apply(to client: inout Client) {
        client.redirectURIs = redirectURIs
        client.grantTypes = grantTypes
        client.thirdParty = thirdParty
        client.postLogoutRedirectURIs = postLogoutRedirectURIs
    }
}
