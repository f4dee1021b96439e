import LatchHTTP

/// `grant_type=authorization_code` at `oauth2/v2.0/token` (RFC 6749 § 4.1.3, RFC 7636 § 4.5): the
/// form's `code`, `redirect_uri` and `code_verifier`, for the client the caller authenticated.
/// The answer is the token endpoint's usual one; failures leave as ``AuthFailure`` through the
/// route's renderer (`invalid_grant` for a refused code).
enum AuthorizationCodeGrant {
    static func respond(_ form: [String: String], context: ClientContext, services: AuthServices) throws -> HTTPResponse {
        let issued = try services.authorization.exchange(
            context: context, code: form["code"], redirectURI: form["redirect_uri"], codeVerifier: form["code_verifier"])
        return .json(
            200, NativeAuthAPI.tokenResponse(issued, clientInfo: NativeAuthParameters.wantsClientInfo(form)),
            headers: HTTPHeaders([("Cache-Control", "no-store"), ("Pragma", "no-cache")]))
    }
}
