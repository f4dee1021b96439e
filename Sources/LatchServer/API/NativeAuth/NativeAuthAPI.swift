import Foundation
import LatchHTTP
import LatchWire

/// The native-auth adapter: the Entra External ID native-auth v1 endpoints under `/{tenant}/`.
/// Each handler parses the form into typed values, calls one domain service and renders the
/// result; every failure leaves through ``NativeAuthRenderer``.
struct NativeAuthAPI: Sendable {
    let services: AuthServices
    let renderer: NativeAuthRenderer
    let log: ServerLog

    /// The paths this family owns, for its route group.
    static let prefixes = [
        "/{tenant}/signup", "/{tenant}/resetpassword", "/{tenant}/register", "/{tenant}/oauth2/v2.0/initiate",
        "/{tenant}/oauth2/v2.0/challenge", "/{tenant}/oauth2/v2.0/introspect", "/{tenant}/oauth2/v2.0/token",
    ]

    /// The parsed request handed to an endpoint body.
    struct Call {
        let form: [String: String]
        let context: ClientContext
        let request: HTTPRequest
    }

    /// Adds the group and its routes to `router`.
    func register(in router: inout Router) {
        router.addGroup("native-auth", prefixes: Self.prefixes, renderer: renderer)
        route(&router, "/{tenant}/signup/v1.0/start", mayBlock: Self.carriesPassword) { call in
            let form = call.form
            return started(
                try services.signUp.start(
                    call.context, username: form["username"], password: form["password"],
                    attributes: try AttributesParameter.parse(form["attributes"]),
                    support: try NativeAuthParameters.support(form["challenge_type"]),
                    capabilities: NativeAuthParameters.capabilities(form["capabilities"])))
        }
        route(&router, "/{tenant}/signup/v1.0/challenge") { call in
            render(
                try services.signUp.challenge(
                    call.context, continuationToken: call.form["continuation_token"],
                    support: try NativeAuthParameters.optionalSupport(call.form["challenge_type"])))
        }
        route(&router, "/{tenant}/signup/v1.0/continue", mayBlock: Self.carriesPassword) { call in
            let step = try services.signUp.continue(
                call.context, continuationToken: call.form["continuation_token"],
                submission: try NativeAuthParameters.signUpSubmission(call.form))
            switch step {
            case .completed(let grant):
                return JSONBody.ok(["continuation_token": grant.continuationToken, "expires_in": grant.expiresIn])
            case .passwordRequired(let token):
                return renderer.passwordRequired(continuationToken: token, request: call.request)
            case .attributesRequired(let token, let attributes):
                return renderer.attributesRequired(continuationToken: token, attributes: attributes, request: call.request)
            }
        }
        route(&router, "/{tenant}/oauth2/v2.0/initiate") { call in
            started(
                try services.signIn.initiate(
                    call.context, username: call.form["username"],
                    support: try NativeAuthParameters.support(call.form["challenge_type"]),
                    capabilities: NativeAuthParameters.capabilities(call.form["capabilities"])))
        }
        route(&router, "/{tenant}/oauth2/v2.0/challenge") { call in
            render(
                try services.signIn.challenge(
                    call.context, continuationToken: call.form["continuation_token"],
                    support: try NativeAuthParameters.optionalSupport(call.form["challenge_type"]),
                    methodID: call.form["id"]))
        }
        route(&router, "/{tenant}/oauth2/v2.0/introspect") { call in
            // RFC 7662 § 2.1 shares the path: a form with `token` and no continuation token.
            if call.form["continuation_token"] == nil, call.form["token"] != nil {
                return try ConfidentialClientEndpoints.introspect(call.form, context: call.context, services: services)
            }
            return Self.methods(try services.signIn.introspect(call.context, continuationToken: call.form["continuation_token"]))
        }
        registerMethodRoutes(in: &router)
        route(&router, "/{tenant}/oauth2/v2.0/token", mayBlock: Self.carriesPassword) { call in
            let form = call.form
            // A registered grant list (or a third-party client's defaults) limits every grant.
            if let grant = form["grant_type"], GrantType.all.contains(grant), !call.context.client.allows(grant: grant) {
                throw AuthFailure.unauthorizedClient("the \(grant) grant is not allowed for this client")
            }
            if form["grant_type"] == "client_credentials" {
                return try ConfidentialClientEndpoints.clientCredentials(form, context: call.context, services: services)
            }
            if form["grant_type"] == GrantType.authorizationCode {
                return try AuthorizationCodeGrant.respond(form, context: call.context, services: services)
            }
            if form["grant_type"] == DeviceAuthorizationService.grantType {
                return try DeviceAuthorizationEndpoint.token(form, context: call.context, services: services)
            }
            let request = TokenRequest(
                grant: try NativeAuthParameters.tokenGrant(form), scope: form["scope"],
                device: NativeAuthParameters.deviceToken(form), claims: form["claims"],
                capabilities: NativeAuthParameters.capabilities(form["capabilities"]))
            let outcome = try services.signIn.token(call.context, request: request)
            switch outcome {
            case .issued(let issued):
                return .json(
                    200, Self.tokenResponse(issued, clientInfo: NativeAuthParameters.wantsClientInfo(form)),
                    headers: HTTPHeaders([("Pragma", "no-cache")]))
            case .secondFactorRequired(let token, _):
                return renderer.secondFactorRequired(continuationToken: token, request: call.request)
            case .methodRegistrationRequired(let token):
                return renderer.methodRegistrationRequired(continuationToken: token, request: call.request)
            case .browserRequired(let reason):
                return NativeAuthRenderer.browserRequired(reason)
            case .browserSignedIn:
                // Only the hosted pages set a browser cookie on their context.
                throw AuthFailure.outOfOrder("a browser sign-in cannot finish at the token endpoint")
            }
        }
        route(&router, "/{tenant}/resetpassword/v1.0/start") { call in
            started(
                try services.passwordReset.start(
                    call.context, username: call.form["username"],
                    support: try NativeAuthParameters.support(call.form["challenge_type"]),
                    capabilities: NativeAuthParameters.capabilities(call.form["capabilities"])))
        }
        route(&router, "/{tenant}/resetpassword/v1.0/challenge") { call in
            render(
                try services.passwordReset.challenge(
                    call.context, continuationToken: call.form["continuation_token"],
                    support: try NativeAuthParameters.optionalSupport(call.form["challenge_type"])))
        }
        route(&router, "/{tenant}/resetpassword/v1.0/continue") { call in
            let grant = try NativeAuthParameters.grantType(call.form)
            guard grant == "oob" else { throw AuthFailure.unsupportedGrantType(grant) }
            let result = try services.passwordReset.continue(
                call.context, continuationToken: call.form["continuation_token"], code: call.form["oob"])
            return JSONBody.ok(["continuation_token": result.continuationToken, "expires_in": result.expiresIn])
        }
        route(&router, "/{tenant}/resetpassword/v1.0/submit", mayBlock: Self.carriesPassword) { call in
            let result = try services.passwordReset.submit(
                call.context, continuationToken: call.form["continuation_token"], newPassword: call.form["new_password"])
            return JSONBody.ok(["continuation_token": result.continuationToken, "poll_interval": result.pollInterval])
        }
        route(&router, "/{tenant}/resetpassword/v1.0/poll_completion") { call in
            let result = try services.passwordReset.pollCompletion(
                call.context, continuationToken: call.form["continuation_token"])
            return JSONBody.ok(["status": Self.wireStatus(result.status), "continuation_token": result.continuationToken])
        }
    }

    /// `register/v1.0/introspect`, `challenge` and `continue`: a strong authentication method
    /// registered during sign-in.
    private func registerMethodRoutes(in router: inout Router) {
        route(&router, "/{tenant}/register/v1.0/introspect") { call in
            Self.methods(
                try services.methodRegistration.introspect(call.context, continuationToken: call.form["continuation_token"]))
        }
        route(&router, "/{tenant}/register/v1.0/challenge") { call in
            let form = call.form
            let challenge = try services.methodRegistration.challenge(
                call.context, continuationToken: form["continuation_token"], challengeType: form["challenge_type"],
                target: form["challenge_target"], channel: form["challenge_channel"])
            switch challenge {
            case .oneTimeCode(let token, let target, let channel, let length, let interval):
                // `challenge_target`, not `challenge_target_label`: MSAL shows it as "sent to".
                return JSONBody.ok([
                    "challenge_type": "oob", "continuation_token": token, "binding_method": "prompt",
                    "challenge_channel": channel.rawValue, "challenge_target": target, "code_length": length,
                    "interval": interval,
                ])
            case .preverified(let token):
                return JSONBody.ok(["challenge_type": "preverified", "continuation_token": token])
            case .browserRequired(let reason):
                return NativeAuthRenderer.browserRequired(reason)
            }
        }
        route(&router, "/{tenant}/register/v1.0/continue") { call in
            let proof: MethodRegistrationService.Proof
            switch try NativeAuthParameters.grantType(call.form) {
            case "oob": proof = .oneTimeCode(call.form["oob"])
            case "continuation_token": proof = .preverified
            case let other: throw AuthFailure.unsupportedGrantType(other)
            }
            let grant = try services.methodRegistration.continue(
                call.context, continuationToken: call.form["continuation_token"], proof: proof)
            return JSONBody.ok(["continuation_token": grant.continuationToken, "expires_in": grant.expiresIn])
        }
    }

    /// An introspect answer: the next token and the methods, each with its masked contact as
    /// `login_hint` (omitted when there is none to show).
    static func methods(_ list: MethodList) -> HTTPResponse {
        var writer = JSONWriter(capacity: 256 + 160 * list.methods.count)
        writer.member("continuation_token", list.continuationToken)
        writer.array("methods", list.methods) { writer, method in
            writer.member("id", method.id)
            writer.member("challenge_type", "oob")
            writer.member("challenge_channel", method.channel.rawValue)
            writer.member("login_hint", method.target.isEmpty ? nil : method.maskedTarget)
        }
        return .json(200, writer.finish())
    }

    /// A POST route whose body runs with the parsed form and the resolved tenant and client.
    /// - Parameter mayBlock: which requests may block for long (they are answered off the HTTP
    ///   workers, see ``LatchHTTP/HTTPAnswer/blocking(_:)``).
    private func route(
        _ router: inout Router, _ pattern: String, mayBlock: Router.BlockingTest? = nil,
        _ body: @escaping @Sendable (Call) throws -> HTTPResponse
    ) {
        let api = self
        router.add("POST", pattern, mayBlock: mayBlock) { request in api.run(request, body) }
    }

    /// Whether the form carries a password (`password` or `new_password`), which the request hashes
    /// or verifies with Argon2id once its cheap checks pass: it may wait for a core.
    static let carriesPassword: Router.BlockingTest = { request in
        guard let form = try? request.formParameters() else { return false }
        return form["password"].map { !$0.isEmpty } ?? false || form["new_password"].map { !$0.isEmpty } ?? false
    }

    /// Parses the body, resolves the tenant and client, calls the domain, and renders any failure.
    private func run(_ request: HTTPRequest, _ body: (Call) throws -> HTTPResponse) -> HTTPResponse {
        do {
            let form = try request.formParameters()
            let tenant = try services.directory.tenant(named: request.pathParameters["tenant"] ?? "")
            // RFC 6749 § 2.3: confidential clients authenticate; public ones send only client_id.
            let context = try ClientCredentials.authenticate(request, form: form, tenant: tenant, services: services)
            try ClientProtection.enforce(context.client, attestation: request.headers[ClientProtection.attestationHeader])
            return try body(Call(form: form, context: context, request: request))
        } catch let error as HTTPError {
            return renderer.render(error, for: request)
        } catch let failure as AuthFailure {
            return renderer.render(failure, for: request)
        } catch {
            if let outage = StoreOutage.httpError(for: error) {
                StoreOutage.log(error, log, request: request)
                return renderer.render(outage, for: request)
            }
            log.error("request failed", [("error", "\(error)")], request: request)
            return renderer.serverError(for: request)
        }
    }

    private func started(_ start: FlowStart) -> HTTPResponse {
        switch start {
        case .started(let token): JSONBody.ok(["continuation_token": token])
        case .browserRequired(let reason): NativeAuthRenderer.browserRequired(reason)
        }
    }

    private func render(_ outcome: ChallengeOutcome) -> HTTPResponse {
        switch outcome {
        case .password(let token):
            return JSONBody.ok(["challenge_type": "password", "continuation_token": token])
        case .oneTimeCode(let token, let channel, let label, let length, let interval):
            return JSONBody.ok([
                "challenge_type": "oob", "continuation_token": token, "binding_method": "prompt",
                "challenge_channel": channel.rawValue, "challenge_target_label": label, "code_length": length,
                "interval": interval,
            ])
        case .browserRequired(let reason):
            return NativeAuthRenderer.browserRequired(reason)
        }
    }

    /// The RFC 6749 § 5.1 token response, with MSAL's `client_info` when asked for, and after a
    /// sign-in Latch's own `device_token` member (``DeviceTrust``; RFC 6749 § 5.1 lets a response
    /// carry more parameters, and clients ignore members they do not know).
    static func tokenResponse(_ issued: IssuedTokens, clientInfo: Bool) -> [UInt8] {
        var writer = JSONWriter(capacity: 1024 + issued.accessToken.utf8.count + (issued.idToken?.utf8.count ?? 0))
        writer.member("token_type", "Bearer")
        writer.member("scope", issued.scopes.joined(separator: " "))
        writer.member("expires_in", issued.expiresIn)
        writer.member("access_token", issued.accessToken)
        writer.member("refresh_token", issued.refreshToken)
        writer.member("id_token", issued.idToken)
        writer.member("client_info", clientInfo ? ClientInfo.encode(issued) : nil)
        writer.member("device_token", issued.deviceToken)
        return writer.finish()
    }

    private static func wireStatus(_ status: PasswordResetService.CompletionStatus) -> String {
        switch status {
        case .succeeded: "succeeded"
        case .inProgress: "in_progress"
        case .failed: "failed"
        case .notStarted: "not_started"
        }
    }
}
