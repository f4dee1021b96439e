import LatchHTTP

/// The wire of the device authorization grant (RFC 8628): the device authorization endpoint
/// `oauth2/v2.0/devicecode` (§ 3.1–3.2) and the grant's token request on the shared token endpoint
/// (§ 3.4–3.5). Failures leave as ``AuthFailure`` through the renderer of each route's family.
enum DeviceAuthorizationEndpoint {
    /// The path of the device authorization endpoint under a tenant.
    static let path = "/{tenant}/oauth2/v2.0/devicecode"

    /// The verification page under the tenant's issuer base (RFC 8628 § 3.2 `verification_uri`).
    static func verificationURI(base: String) -> String { "\(base)/oauth2/v2.0/devicelogin" }

    /// `POST oauth2/v2.0/devicecode` with `client_id` and `scope` (a confidential client
    /// authenticates as at the token endpoint): `device_code`, `user_code`, `verification_uri`,
    /// `verification_uri_complete`, `expires_in`, `interval`, and Entra's `message`, never cached
    /// (RFC 8628 § 3.2).
    static func start(_ request: HTTPRequest, tenant: Tenant, services: AuthServices) throws -> HTTPResponse {
        let form = try request.formParameters()
        let context = try ClientCredentials.authenticate(request, form: form, tenant: tenant, services: services)
        let started = try services.deviceAuthorizations.start(context: context, scope: form["scope"])
        let issuer = services.tokens.issuer(for: tenant)
        let uri = verificationURI(base: String(issuer.dropLast("/v2.0".count)))
        var writer = JSONWriter(capacity: 512)
        writer.member("device_code", started.deviceCode)
        writer.member("user_code", started.userCode)
        writer.member("verification_uri", uri)
        writer.member("verification_uri_complete", "\(uri)?user_code=\(started.userCode)")
        writer.member("expires_in", started.expiresIn)
        writer.member("interval", started.interval)
        writer.member(
            "message",
            "To sign in, use a web browser to open the page \(uri) and enter the code \(started.userCode) to authenticate.")
        return .json(200, writer.finish(), headers: HTTPHeaders([("Cache-Control", "no-store"), ("Pragma", "no-cache")]))
    }

    /// `grant_type=urn:ietf:params:oauth:grant-type:device_code` with `device_code`: the RFC 6749
    /// § 5.1 token response once the user approved, `Cache-Control: no-store`.
    static func token(_ form: [String: String], context: ClientContext, services: AuthServices) throws -> HTTPResponse {
        let issued = try services.deviceAuthorizations.poll(context: context, deviceCode: form["device_code"])
        return .json(
            200, NativeAuthAPI.tokenResponse(issued, clientInfo: NativeAuthParameters.wantsClientInfo(form)),
            headers: HTTPHeaders([("Cache-Control", "no-store"), ("Pragma", "no-cache")]))
    }
}
