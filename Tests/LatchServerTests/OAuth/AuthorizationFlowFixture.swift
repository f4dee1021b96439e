import Foundation
import LatchServer
import LatchTesting
import Testing

/// An authorization-code client for the flow suites: builds authorization requests with PKCE,
/// signs in on the hosted pages with a ``PageBrowser``, and exchanges codes.
struct AuthorizationFlowFixture {
    let server: LatchTestServer
    let browser: PageBrowser
    var clientID = "latch-dev"
    var redirectURI = "http://127.0.0.1:5555/cb"
    let pkce = PKCE()

    init(_ server: LatchTestServer, tenant: String = "default") {
        self.server = server
        browser = PageBrowser(server, tenant: tenant)
    }

    /// The standard parameters, overridden by `extra` (a `""` value removes one).
    func parameters(_ extra: [String: String] = [:]) -> [String: String] {
        var parameters = [
            "client_id": clientID, "response_type": "code", "redirect_uri": redirectURI,
            "scope": "openid offline_access", "state": "state-1", "nonce": "nonce-1",
            "code_challenge": pkce.challenge, "code_challenge_method": "S256",
        ]
        for (name, value) in extra { parameters[name] = value.isEmpty ? nil : value }
        return parameters
    }

    /// GETs the authorization endpoint.
    func authorize(_ extra: [String: String] = [:]) async throws -> PageBrowser.Page {
        try await browser.get(browser.authorizePath(parameters(extra)))
    }

    /// Signs in with a password on the sign-in page `page`.
    func signIn(_ page: PageBrowser.Page, email: String, password: String) async throws -> PageBrowser.Page {
        try await browser.submit(page, ["username": email, "password": password, "action": "password"])
    }

    /// Authorizes and signs in with a password; returns the answer after the sign-in form.
    func authorizeSigningIn(
        email: String, password: String, _ extra: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> PageBrowser.Page {
        let page = try await authorize(extra)
        #expect(page.formID == "signin", "\(page.html)", sourceLocation: sourceLocation)
        return try await signIn(page, email: email, password: password)
    }

    /// The code of a successful redirect to the redirect URI, checking `state` and `iss`.
    func code(_ page: PageBrowser.Page, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        #expect(page.status == 303, "\(page.status) \(page.html)", sourceLocation: sourceLocation)
        let location = try #require(page.location, sourceLocation: sourceLocation)
        #expect(location.hasPrefix(redirectURI + "?"), "\(location)", sourceLocation: sourceLocation)
        let query = page.redirectQuery
        #expect(query["state"] == "state-1", sourceLocation: sourceLocation)
        #expect(query["iss"] == "\(server.baseURL)/\(browser.tenant)/v2.0", sourceLocation: sourceLocation)
        return try #require(query["code"], "\(location)", sourceLocation: sourceLocation)
    }

    /// Exchanges `code` at the token endpoint.
    func exchange(
        _ code: String, verifier: String? = nil, redirectURI: String? = nil, clientID: String? = nil,
        extra: [String: String] = [:]
    ) async throws -> WireResponse {
        var form = [
            "grant_type": "authorization_code", "code": code, "redirect_uri": redirectURI ?? self.redirectURI,
            "client_id": clientID ?? self.clientID, "code_verifier": verifier ?? pkce.verifier,
        ]
        for (name, value) in extra { form[name] = value.isEmpty ? nil : value }
        return try await WireClient(server, tenant: browser.tenant, clientID: clientID ?? self.clientID)
            .post("oauth2/v2.0/token", form)
    }

    /// Registers a client in `tenant`.
    @discardableResult
    static func register(
        _ server: LatchTestServer, id: String, tenant: String = "default", redirectURIs: [String],
        thirdParty: Bool = false, grantTypes: [String] = [], postLogout: [String] = [], confidential: Bool = false
    ) throws -> String? {
        let admin = server.app.services.admin
        let registration = ClientRegistration(
            redirectURIs: redirectURIs, grantTypes: grantTypes, thirdParty: thirdParty, postLogoutRedirectURIs: postLogout)
        if confidential {
            return try admin.createConfidentialClient(
                tenant: try admin.tenant(named: tenant), id: id, name: "App \(id)", registration: registration
            ).secret
        }
        try admin.createClient(tenant: try admin.tenant(named: tenant), id: id, name: "App \(id)", registration: registration)
        return nil
    }
}
