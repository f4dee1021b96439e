import Foundation
import LatchServer
import LatchTesting
import Testing

/// One native-auth answer and the `client-request-id` that was sent with it, so error envelopes can
/// be checked against the correlation id the client chose.
struct NativeReply: @unchecked Sendable {  // wraps WireResponse, whose JSON values are immutable plists
    let wire: WireResponse
    let requestID: String

    var status: Int { wire.status }
    var json: [String: Any] { wire.json }
    var error: String? { wire.error }
    var suberror: String? { wire.suberror }
    var errorCodes: [Int] { wire.errorCodes }
    var continuationToken: String? { wire.continuationToken }
    var errorDescription: String? { wire.string("error_description") }
    subscript(key: String) -> Any? { wire.json[key] }
    func string(_ key: String) -> String? { wire.string(key) }
    func int(_ key: String) -> Int? { (wire.json[key] as? NSNumber)?.intValue }
    /// The member names of the JSON body, sorted.
    var keys: [String] { wire.json.keys.sorted() }
}

/// Tokens from a successful `/oauth2/v2.0/token` answer, with the ID-token payload decoded.
struct IssuedTokens: @unchecked Sendable {  // JSON values from JSONSerialization are immutable plists
    let reply: NativeReply
    let accessToken: String
    let refreshToken: String?
    let idToken: String
    let idClaims: [String: Any]
    let accessClaims: [String: Any]

    func claim(_ name: String) -> Any? { idClaims[name] }
    func stringClaim(_ name: String) -> String? { idClaims[name] as? String }
    func intClaim(_ name: String) -> Int? { (idClaims[name] as? NSNumber)?.intValue }
    var amr: [String]? { idClaims["amr"] as? [String] }
}

/// Drives the native-auth endpoints of a ``LatchTestServer`` over real HTTP, one step per method,
/// plus whole flows (`signUp`, `signIn`, `resetPassword`) that `#require` every step to succeed.
struct NativeAuthFlows: Sendable {
    let server: LatchTestServer
    let wire: WireClient

    init(_ server: LatchTestServer, tenant: String = "default", clientID: String = "latch-dev") {
        self.server = server
        wire = WireClient(server, tenant: tenant, clientID: clientID)
    }

    var tenant: String { wire.tenant }
    var clientID: String { wire.clientID }

    /// The same server seen from another tenant or client.
    func client(tenant: String? = nil, clientID: String? = nil) -> NativeAuthFlows {
        NativeAuthFlows(server, tenant: tenant ?? self.tenant, clientID: clientID ?? self.clientID)
    }

    // MARK: - Transport

    /// POSTs `form` (nil values dropped) with a fresh `client-request-id`.
    func post(_ path: String, _ form: [String: String?]) async throws -> NativeReply {
        let requestID = UUID().uuidString.lowercased()
        let fields = form.compactMapValues { $0 }
        let wire = try await wire.post(path, fields, headers: ["client-request-id": requestID])
        return NativeReply(wire: wire, requestID: requestID)
    }

    /// POSTs a raw body with a fresh `client-request-id`.
    func postRaw(_ path: String, body: Data, contentType: String?) async throws -> NativeReply {
        let requestID = UUID().uuidString.lowercased()
        var headers = ["client-request-id": requestID]
        if let contentType { headers["Content-Type"] = contentType }
        let wire = try await wire.raw("POST", "/\(tenant)/\(path)", body: body, headers: headers)
        return NativeReply(wire: wire, requestID: requestID)
    }

    // MARK: - Sign-up steps

    func signUpStart(
        _ username: String?, password: String? = nil, attributes: String? = nil,
        challengeType: String? = "oob password redirect"
    ) async throws -> NativeReply {
        try await post(
            "signup/v1.0/start",
            ["username": username, "password": password, "attributes": attributes, "challenge_type": challengeType])
    }

    func signUpChallenge(_ token: String?, challengeType: String? = "oob password redirect") async throws -> NativeReply {
        try await post("signup/v1.0/challenge", ["continuation_token": token, "challenge_type": challengeType])
    }

    func signUpContinue(
        _ token: String?, grantType: String?, oob: String? = nil, password: String? = nil, attributes: String? = nil
    ) async throws -> NativeReply {
        try await post(
            "signup/v1.0/continue",
            [
                "continuation_token": token, "grant_type": grantType, "oob": oob, "password": password,
                "attributes": attributes,
            ])
    }

    // MARK: - Sign-in steps

    func initiate(_ username: String?, challengeType: String? = "oob password redirect") async throws -> NativeReply {
        try await post("oauth2/v2.0/initiate", ["username": username, "challenge_type": challengeType])
    }

    func challenge(_ token: String?, challengeType: String? = "oob password redirect") async throws -> NativeReply {
        try await post("oauth2/v2.0/challenge", ["continuation_token": token, "challenge_type": challengeType])
    }

    func token(
        grantType: String?, continuationToken: String? = nil, username: String? = nil, password: String? = nil,
        oob: String? = nil, refreshToken: String? = nil, scope: String? = nil, clientInfo: Bool = false
    ) async throws -> NativeReply {
        try await post(
            "oauth2/v2.0/token",
            [
                "grant_type": grantType, "continuation_token": continuationToken, "username": username,
                "password": password, "oob": oob, "refresh_token": refreshToken, "scope": scope,
                "client_info": clientInfo ? "1" : nil,
            ])
    }

    func refresh(_ refreshToken: String) async throws -> NativeReply {
        try await token(grantType: "refresh_token", refreshToken: refreshToken)
    }

    // MARK: - Password-reset steps

    func resetStart(_ username: String?, challengeType: String? = "oob redirect") async throws -> NativeReply {
        try await post("resetpassword/v1.0/start", ["username": username, "challenge_type": challengeType])
    }

    func resetChallenge(_ token: String?, challengeType: String? = "oob redirect") async throws -> NativeReply {
        try await post("resetpassword/v1.0/challenge", ["continuation_token": token, "challenge_type": challengeType])
    }

    func resetContinue(_ token: String?, oob: String?, grantType: String? = "oob") async throws -> NativeReply {
        try await post("resetpassword/v1.0/continue", ["continuation_token": token, "grant_type": grantType, "oob": oob])
    }

    func resetSubmit(_ token: String?, newPassword: String?) async throws -> NativeReply {
        try await post("resetpassword/v1.0/submit", ["continuation_token": token, "new_password": newPassword])
    }

    func resetPoll(_ token: String?) async throws -> NativeReply {
        try await post("resetpassword/v1.0/poll_completion", ["continuation_token": token])
    }

    // MARK: - Outbox

    /// The newest code sent to `email` in this tenant.
    func code(for email: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try #require(try server.latestCode(to: email, tenant: tenant), "no code in the outbox", sourceLocation: sourceLocation)
    }

    /// How many messages went to `email` in this tenant.
    func messageCount(to email: String) throws -> Int { try server.outbox(to: email, tenant: tenant).count }

    // MARK: - Whole flows

    /// Sign-up with a code, then the password and attributes when asked, then the continuation-token
    /// grant. Returns the tokens.
    func signUp(
        _ email: String, password: String? = nil, attributes: String? = nil,
        challengeType: String = "oob password redirect", laterPassword: String? = nil, laterAttributes: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> IssuedTokens {
        let start = try await signUpStart(email, password: password, attributes: attributes, challengeType: challengeType)
        try expectOK(start, sourceLocation: sourceLocation)
        let challenge = try await signUpChallenge(start.continuationToken, challengeType: challengeType)
        try expectOK(challenge, sourceLocation: sourceLocation)
        #expect(challenge.string("challenge_type") == "oob", sourceLocation: sourceLocation)
        var step = try await signUpContinue(
            challenge.continuationToken, grantType: "oob", oob: try code(for: email, sourceLocation: sourceLocation))
        if step.error == "credential_required" {
            let password = try #require(laterPassword, "the server asked for a password", sourceLocation: sourceLocation)
            step = try await signUpContinue(step.continuationToken, grantType: "password", password: password)
        }
        if step.error == "attributes_required" {
            let attributes = try #require(laterAttributes, "the server asked for attributes", sourceLocation: sourceLocation)
            step = try await signUpContinue(step.continuationToken, grantType: "attributes", attributes: attributes)
        }
        try expectOK(step, sourceLocation: sourceLocation)
        let grant = try await token(grantType: "continuation_token", continuationToken: step.continuationToken)
        return try tokens(from: grant, sourceLocation: sourceLocation)
    }

    /// Password sign-in: initiate, challenge (answered `password`), password grant.
    func signIn(
        _ email: String, password: String, challengeType: String = "oob password redirect",
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> IssuedTokens {
        let grant = try await passwordGrant(
            email, password: password, challengeType: challengeType, sourceLocation: sourceLocation)
        return try tokens(from: grant, sourceLocation: sourceLocation)
    }

    /// Initiate and challenge a password sign-in, then send `password`; returns the `/token` answer.
    func passwordGrant(
        _ email: String, password: String, challengeType: String = "oob password redirect",
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> NativeReply {
        let initiate = try await initiate(email, challengeType: challengeType)
        try expectOK(initiate, sourceLocation: sourceLocation)
        let challenge = try await challenge(initiate.continuationToken, challengeType: challengeType)
        try expectOK(challenge, sourceLocation: sourceLocation)
        #expect(challenge.string("challenge_type") == "password", sourceLocation: sourceLocation)
        return try await token(grantType: "password", continuationToken: challenge.continuationToken, password: password)
    }

    /// Code sign-in: initiate, challenge (answered `oob`), oob grant with the mailed code.
    func signInWithCode(
        _ email: String, challengeType: String = "oob password redirect", sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> IssuedTokens {
        let initiate = try await initiate(email, challengeType: challengeType)
        try expectOK(initiate, sourceLocation: sourceLocation)
        let challenge = try await challenge(initiate.continuationToken, challengeType: challengeType)
        try expectOK(challenge, sourceLocation: sourceLocation)
        #expect(challenge.string("challenge_type") == "oob", sourceLocation: sourceLocation)
        let grant = try await token(
            grantType: "oob", continuationToken: challenge.continuationToken,
            oob: try code(for: email, sourceLocation: sourceLocation))
        return try tokens(from: grant, sourceLocation: sourceLocation)
    }

    /// Reset: start, challenge, code, new password, poll, continuation-token grant.
    func resetPassword(_ email: String, to newPassword: String, sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> IssuedTokens
    {
        let start = try await resetStart(email)
        try expectOK(start, sourceLocation: sourceLocation)
        let challenge = try await resetChallenge(start.continuationToken)
        try expectOK(challenge, sourceLocation: sourceLocation)
        let verified = try await resetContinue(
            challenge.continuationToken, oob: try code(for: email, sourceLocation: sourceLocation))
        try expectOK(verified, sourceLocation: sourceLocation)
        let submitted = try await resetSubmit(verified.continuationToken, newPassword: newPassword)
        try expectOK(submitted, sourceLocation: sourceLocation)
        let polled = try await resetPoll(submitted.continuationToken)
        try expectOK(polled, sourceLocation: sourceLocation)
        #expect(polled.string("status") == "succeeded", sourceLocation: sourceLocation)
        let grant = try await token(grantType: "continuation_token", continuationToken: polled.continuationToken)
        return try tokens(from: grant, sourceLocation: sourceLocation)
    }

    // MARK: - Checks

    /// Requires HTTP 200 without an `error`.
    func expectOK(_ reply: NativeReply, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try #require(
            reply.status == 200 && reply.error == nil,
            "expected success, got \(reply.status) \(String(decoding: reply.wire.body, as: UTF8.self))",
            sourceLocation: sourceLocation)
    }

    /// Requires a token answer and decodes its JWTs.
    func tokens(from reply: NativeReply, sourceLocation: SourceLocation = #_sourceLocation) throws -> IssuedTokens {
        try expectOK(reply, sourceLocation: sourceLocation)
        let access = try #require(reply.string("access_token"), sourceLocation: sourceLocation)
        let id = try #require(reply.string("id_token"), sourceLocation: sourceLocation)
        return IssuedTokens(
            reply: reply, accessToken: access, refreshToken: reply.string("refresh_token"), idToken: id,
            idClaims: try Self.payload(of: id, sourceLocation: sourceLocation),
            accessClaims: try Self.payload(of: access, sourceLocation: sourceLocation))
    }

    /// Checks a native-auth error envelope exactly: status, `error`, `suberror` (nil: absent),
    /// `error_codes` (nil: not checked), and the correlation id, trace id and timestamp every
    /// envelope carries.
    func expectError(
        _ reply: NativeReply, status: Int = 400, error: String, suberror: String? = nil, codes: [Int]?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard reply.status == status, reply.error == error else {
            Issue.record(
                "expected HTTP \(status) \(error), got \(reply.status) \(String(decoding: reply.wire.body, as: UTF8.self))",
                sourceLocation: sourceLocation)
            return
        }
        #expect(reply.suberror == suberror, sourceLocation: sourceLocation)
        if let codes { #expect(reply.errorCodes == codes, sourceLocation: sourceLocation) }
        #expect(reply.string("correlation_id") == reply.requestID, sourceLocation: sourceLocation)
        let trace = reply.string("trace_id")
        #expect(trace?.isEmpty == false, sourceLocation: sourceLocation)
        #expect(trace == reply.wire.headers["x-request-id"], sourceLocation: sourceLocation)
        #expect(reply.string("timestamp") == Self.timestamp(server.clock.now()), sourceLocation: sourceLocation)
        #expect(reply.errorDescription?.isEmpty == false, sourceLocation: sourceLocation)
    }

    /// `yyyy-MM-dd HH:mm:ssZ` in UTC, the envelope's `timestamp` format.
    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss'Z'"
        return formatter.string(from: date)
    }

    /// The JSON payload of a compact JWS, decoded from base64url independently of the server's code.
    static func payload(of jwt: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let segments = jwt.split(separator: ".", omittingEmptySubsequences: false)
        try #require(segments.count == 3, "a JWS has three segments", sourceLocation: sourceLocation)
        var base64 = segments[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        let data = try #require(Data(base64Encoded: base64), "payload is not base64url", sourceLocation: sourceLocation)
        let object = try JSONSerialization.jsonObject(with: data)
        return try #require(object as? [String: Any], "payload is not a JSON object", sourceLocation: sourceLocation)
    }

    /// The current server time in whole seconds since the epoch.
    var now: Int { Int(server.clock.now().timeIntervalSince1970) }

    /// The tenant record.
    func tenantRecord() throws -> Tenant { try server.app.services.admin.tenant(named: tenant) }

    /// The user record for `email` in this tenant.
    func user(_ email: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> User {
        let users = try server.app.services.admin.users(tenant: try tenantRecord())
        return try #require(users.first { $0.email == email }, "no user \(email)", sourceLocation: sourceLocation)
    }

    /// Audit events of this tenant, oldest first.
    func auditEvents() throws -> [AuditEvent] {
        try server.app.services.admin.auditEvents(tenant: try tenantRecord(), limit: 500).reversed()
    }
}

/// Runs `body` against a fresh server and stops it afterwards, even when `body` throws.
func withNativeAuthServer<R>(
    mode: LatchTestServer.Mode = .inProcess, configure: (LatchTestServer) throws -> Void = { _ in },
    _ body: (NativeAuthFlows) async throws -> R
) async throws -> R {
    let server = try LatchTestServer.start(mode: mode)
    defer { server.stop() }
    try configure(server)
    return try await body(NativeAuthFlows(server))
}
