import Foundation
import LatchHTTP

/// The client credentials of a token-endpoint, revocation or introspection request (RFC 6749
/// § 2.3.1): HTTP Basic (`client_secret_basic`, id and secret each form-urlencoded), `client_id` and
/// `client_secret` in the form (`client_secret_post`), a signed JWT as `client_assertion` with
/// `client_assertion_type` (`private_key_jwt`: RFC 7523 § 2.2, OpenID Connect Core § 9), or only
/// `client_id` for a public client.
struct ClientCredentials: Equatable {
    /// The client id, from the Basic header or the form.
    let clientID: String?
    /// The secret, or `nil` when none was sent.
    let secret: String?
    /// Whether the request used HTTP Basic.
    let basic: Bool
    /// The `client_assertion`, or `nil` when the request used no assertion.
    var assertion: String? = nil
    /// The `client_assertion_type` (RFC 7521 § 4.2), or `nil` when absent.
    var assertionType: String? = nil

    /// The longest `Authorization` header accepted, in bytes: a 128-byte id and a 512-byte secret
    /// fit well, percent-encoded and in base64.
    static let maximumHeaderLength = 2048

    /// The `error_description` of every failed client authentication (one text, so a failure says
    /// nothing about which part was wrong).
    static let failureDescription = "Client authentication failed."

    /// The `error_description` when the request used more than one method.
    static let multipleDescription = "The request must authenticate the client with one method only."

    /// The RFC 6749 § 5.2 / RFC 7617 challenge for `request`'s tenant.
    static func challenge(_ request: HTTPRequest) -> String {
        let tenant = request.pathParameters["tenant"] ?? ""
        let safe = Tenant.isValidName(tenant) ? tenant : "latch"
        return "Basic realm=\"\(safe)\", charset=\"UTF-8\""
    }

    /// Reads the credentials of `request` and its parsed `form`.
    /// - Throws: ``AuthFailure/multipleClientAuthentications`` for Basic together with a form
    ///   secret (or a different form `client_id`), or an assertion together with a secret or Basic;
    ///   ``AuthFailure/invalidClientAuthentication(basic:)`` for a malformed or oversized Basic header.
    static func parse(_ request: HTTPRequest, form: [String: String]) throws -> ClientCredentials {
        let formSecret = form["client_secret"]
        let header = request.headers["Authorization"].flatMap { $0.lowercased().hasPrefix("basic ") ? $0 : nil }
        if form["client_assertion"] != nil || form["client_assertion_type"] != nil {
            guard formSecret == nil, header == nil else { throw AuthFailure.multipleClientAuthentications }
            return ClientCredentials(
                clientID: form["client_id"], secret: nil, basic: false, assertion: form["client_assertion"] ?? "",
                assertionType: form["client_assertion_type"])
        }
        guard let header else {
            return ClientCredentials(clientID: form["client_id"], secret: formSecret, basic: false)
        }
        if formSecret != nil { throw AuthFailure.multipleClientAuthentications }
        guard header.utf8.count <= maximumHeaderLength,
            let data = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let decoded = String(data: data, encoding: .utf8),
            let colon = decoded.firstIndex(of: ":"),
            let id = formDecoded(decoded[..<colon]), let secret = formDecoded(decoded[decoded.index(after: colon)...]),
            !id.isEmpty
        else { throw AuthFailure.invalidClientAuthentication(basic: true) }
        if let formID = form["client_id"], formID != id { throw AuthFailure.multipleClientAuthentications }
        return ClientCredentials(clientID: id, secret: secret, basic: true)
    }

    /// Resolves and authenticates the client of `request` in `tenant`.
    /// - Throws: as ``parse(_:form:)``, ``Directory/client(id:in:)``,
    ///   ``ClientAuthenticator/authenticate(_:secret:basic:)`` and
    ///   ``ClientAssertionVerifier/authenticate(_:assertion:type:)``; an unknown client that sent a
    ///   secret or an assertion fails as ``AuthFailure/invalidClientAuthentication(basic:)``.
    static func authenticate(
        _ request: HTTPRequest, form: [String: String], tenant: Tenant, services: AuthServices
    ) throws -> ClientContext {
        let credentials = try parse(request, form: form)
        if let assertion = credentials.assertion {
            return try authenticate(request, assertion: assertion, credentials, tenant: tenant, services: services)
        }
        let client: Client
        do {
            client = try services.directory.client(id: credentials.clientID, in: tenant)
        } catch AuthFailure.unknownClient where credentials.secret != nil {
            throw AuthFailure.invalidClientAuthentication(basic: credentials.basic)
        }
        let context = ClientContext(tenant: tenant, client: client, remoteAddress: request.remoteAddress)
        try ClientAuthenticator(limiter: services.limiter).authenticate(
            context, secret: credentials.secret, basic: credentials.basic)
        return context
    }

    /// The `private_key_jwt` path: the assertion's `sub` names the client (a `client_id` sent too
    /// must be the same, RFC 7521 § 4.2), whose registered keys then verify it.
    private static func authenticate(
        _ request: HTTPRequest, assertion: String, _ credentials: ClientCredentials, tenant: Tenant,
        services: AuthServices
    ) throws -> ClientContext {
        let failure = AuthFailure.invalidClientAuthentication(basic: false)
        guard let claimed = ClientAssertionVerifier.claimedClientID(assertion),
            credentials.clientID == nil || credentials.clientID == claimed
        else { throw failure }
        let client: Client
        do {
            client = try services.directory.client(id: claimed, in: tenant)
        } catch AuthFailure.unknownClient {
            throw failure
        }
        let context = ClientContext(tenant: tenant, client: client, remoteAddress: request.remoteAddress)
        try ClientAssertionVerifier(
            store: services.store, clock: services.clock, limiter: services.limiter, tokens: services.tokens
        ).authenticate(context, assertion: assertion, type: credentials.assertionType)
        return context
    }

    /// `application/x-www-form-urlencoded` decoding of one Basic credential part (RFC 6749 § 2.3.1).
    private static func formDecoded(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
