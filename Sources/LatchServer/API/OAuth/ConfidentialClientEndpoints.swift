import LatchHTTP

/// The answers of the endpoints only confidential clients use, on paths the native-auth family
/// shares: the `client_credentials` grant (RFC 6749 § 4.4) of `oauth2/v2.0/token` and token
/// introspection (RFC 7662) at `oauth2/v2.0/introspect`. The caller has authenticated the client;
/// failures leave as ``AuthFailure`` through the family's renderer.
enum ConfidentialClientEndpoints {
    /// `grant_type=client_credentials`: `{"access_token","token_type":"Bearer","expires_in","scope"}`,
    /// with no refresh token (RFC 6749 § 4.4.3) and `Cache-Control: no-store` (§ 5.1).
    static func clientCredentials(_ form: [String: String], context: ClientContext, services: AuthServices) throws
        -> HTTPResponse
    {
        try services.limiter.admit(.tokenRequests, context)
        let issued = try services.tokens.clientCredentials(context: context, scope: form["scope"])
        var writer = JSONWriter(capacity: 128 + issued.accessToken.utf8.count)
        writer.member("access_token", issued.accessToken)
        writer.member("token_type", "Bearer")
        writer.member("expires_in", issued.expiresIn)
        writer.member("scope", issued.scopes.joined(separator: " "))
        return .json(200, writer.finish(), headers: HTTPHeaders([("Cache-Control", "no-store"), ("Pragma", "no-cache")]))
    }

    /// RFC 7662 § 2.2: `{"active":false}`, or the members of an active token.
    static func introspect(_ form: [String: String], context: ClientContext, services: AuthServices) throws
        -> HTTPResponse
    {
        let hint: TokenTypeHint? =
            switch form["token_type_hint"] {
            case "refresh_token": .refreshToken
            case "access_token": .accessToken
            default: nil  // § 2.1: an unknown hint is ignored.
            }
        let result = try services.tokens.introspect(context: context, token: form["token"], hint: hint)
        var writer = JSONWriter(capacity: 256)
        writer.member("active", result.active)
        writer.member("scope", result.scope)
        writer.member("client_id", result.clientID)
        writer.member("sub", result.subject)
        writer.member("exp", result.expiresAt)
        writer.member("iat", result.issuedAt)
        writer.member("iss", result.issuer)
        writer.member("token_type", result.tokenType)
        return .json(200, writer.finish(), headers: HTTPHeaders([("Cache-Control", "no-store")]))
    }
}
