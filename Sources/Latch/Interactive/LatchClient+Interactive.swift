import Foundation

extension LatchClient {
    /// Signs in interactively in a browser: the authorization code flow (RFC 6749 § 4.1) with PKCE
    /// S256 (RFC 7636), as a native app does it (RFC 8252): the system browser and a loopback
    /// redirect on `127.0.0.1` (§ 7.3), or a browser that captures a private-use-scheme redirect
    /// (§ 7.1, `ASWebAuthenticationSession`). A random `state` is checked on the redirect and a
    /// random `nonce` in the ID token (OpenID Connect Core § 3.1.2.1). The tokens are stored like
    /// those of a native sign-in, as a new session that becomes the current account, so
    /// ``acquireTokenSilent(scopes:account:forceRefresh:correlationID:)`` serves them afterwards.
    ///
    /// ```swift
    /// do {
    ///     token = try await client.acquireTokenSilent(account: account)
    /// } catch let error as LatchError where error.code == .interactionRequired {
    ///     token = try await client.acquireToken(parameters: LatchInteractiveParameters(error: error))
    /// }
    /// ```
    /// - Throws: ``LatchError`` — ``LatchError/Code/userCanceled`` when the user closed the browser,
    ///   declined (`access_denied`), or did not come back within the timeout, or the task was
    ///   cancelled; ``LatchError/Code/stateMismatch``; ``LatchError/Code/invalidAuthorizationResponse``;
    ///   ``LatchError/Code/missingOrInvalidNonce``; ``LatchError/Code/interactionRequired`` for
    ///   `prompt: .none` without a browser session; ``LatchError/Code/browserUnavailable``; the
    ///   token endpoint's errors; ``LatchError/Code/serverDeclinedScopes`` after storing the tokens.
    public func acquireToken(parameters: LatchInteractiveParameters) async throws -> LatchTokenResult {
        let flow = FlowContext(
            session: session, kind: .interactive, correlationID: parameters.correlationID, claims: parameters.claims)
        return try await flow.step("authorize", outcome: { _ in "completed" }) {
            try await InteractiveSignIn(flow: flow, parameters: parameters).run()
        }
    }

    /// Signs in with the device authorization grant (RFC 8628), for a device without a usable
    /// browser: the server issues a user code, `onCode` shows it with the verification page
    /// (§ 3.3), and the SDK polls the token endpoint at the server's `interval` (§ 3.4), five
    /// seconds slower after each `slow_down` (§ 3.5), until the user approves on another device.
    /// The tokens are stored like those of any sign-in.
    ///
    /// ```swift
    /// let result = try await client.acquireTokenWithDeviceCode(scopes: ["openid"]) { code in
    ///     print("Open \(code.verificationURI) and enter \(code.userCode)")
    /// }
    /// ```
    /// - Parameters:
    ///   - scopes: the scopes; the configuration's defaults when empty.
    ///   - correlationID: sent as `client-request-id` with every request; a new one when `nil`.
    ///   - onCode: called once, before polling starts.
    /// - Throws: ``LatchError`` — ``LatchError/Code/deviceCodeExpired`` (`expired_token`, or the
    ///   code's lifetime passed), ``LatchError/Code/userCanceled`` when the user declined
    ///   (`access_denied`) or the task was cancelled (polling stops at once), the endpoint's errors.
    public func acquireTokenWithDeviceCode(
        scopes: [String] = [], correlationID: UUID? = nil, onCode: @escaping @Sendable (LatchDeviceCode) -> Void
    ) async throws -> LatchTokenResult {
        let flow = FlowContext(session: session, kind: .deviceCode, correlationID: correlationID)
        return try await flow.step("device_code", outcome: { _ in "completed" }) {
            try await DeviceCodeSignIn(flow: flow, scopes: scopes.isEmpty ? configuration.defaultScopes : scopes)
                .run(onCode: onCode)
        }
    }

    /// ``acquireTokenWithDeviceCode(scopes:correlationID:onCode:)`` without a correlation id (the
    /// ``LatchClientProtocol`` requirement).
    public func acquireTokenWithDeviceCode(
        scopes: [String], onCode: @escaping @Sendable (LatchDeviceCode) -> Void
    ) async throws -> LatchTokenResult {
        try await acquireTokenWithDeviceCode(scopes: scopes, correlationID: nil, onCode: onCode)
    }
}

/// One interactive sign-in: the listener (when the browser needs one), the authorization request,
/// the redirect, the code exchange (RFC 6749 § 4.1.3) and the stored tokens.
struct InteractiveSignIn: Sendable {
    let flow: FlowContext
    let parameters: LatchInteractiveParameters

    func run() async throws -> LatchTokenResult {
        let configuration = flow.configuration
        let browser = parameters.browser ?? LatchSystemBrowser()
        let redirectURI: URL
        let listener: LoopbackRedirectListener?
        if let own = browser.redirectURI {
            redirectURI = own
            listener = nil
        } else {
            let started = try LoopbackRedirectListener()
            redirectURI = started.redirectURI
            listener = started
        }
        defer { listener?.close() }
        let request = AuthorizationRequest(configuration: configuration, redirectURI: redirectURI, parameters: parameters)
        configuration.logger.log(
            .debug, "flow=interactive step=open redirect_uri=\(redirectURI.absoluteString) correlation_id=\(flow.id)")
        let redirect = try await awaitRedirect(browser, request, listener)
        let code = try request.code(from: redirect)
        let reply = try await flow.post(
            "oauth2/v2.0/token",
            [
                "grant_type": ServerErrorMapping.GrantType.authorizationCode, "code": code,
                "redirect_uri": redirectURI.absoluteString, "code_verifier": request.pkce.verifier,
            ], .stateChanging)
        try Self.checkNonce(reply, expected: request.nonce)
        let result = try await flow.session.tokens.save(reply, username: parameters.loginHint ?? "")
        try DeclinedScopes.check(requested: request.scopes, granted: reply.scope)
        return result
    }

    /// The ID token must carry the request's `nonce` (OpenID Connect Core § 3.1.3.7, step 11).
    static func checkNonce(_ reply: NativeAuthReply, expected: String) throws {
        guard let idToken = reply.idToken, let claims = LatchClaims(token: idToken),
            claims.value(String.self, for: "nonce") == expected
        else {
            throw LatchError(
                code: .missingOrInvalidNonce, message: "The ID token does not carry the nonce of the sign-in request.")
        }
    }

    /// The redirect: from the browser when it captures it, else from the listener; whichever comes
    /// first. The timeout, a closed browser or listener, and cancellation end in
    /// ``LatchError/Code/userCanceled``.
    private func awaitRedirect(
        _ browser: any LatchWebBrowser, _ request: AuthorizationRequest, _ listener: LoopbackRedirectListener?
    ) async throws -> URL {
        let timeout = parameters.timeout
        let url = request.url
        let redirectURI = request.redirectURI
        do {
            return try await withThrowingTaskGroup(of: URL?.self) { group in
                group.addTask {
                    switch try await browser.open(url, redirectURI: redirectURI) {
                    case .redirected(let redirect): return redirect
                    case .awaitingRedirect: return nil
                    }
                }
                group.addTask {
                    if let listener { return try await listener.redirect(timeout: timeout) }
                    try await Task.sleep(nanoseconds: UInt64(max(timeout, 0) * 1_000_000_000))
                    throw LatchError(
                        code: .userCanceled, message: "No redirect arrived within \(Int(timeout)) s; the sign-in was abandoned.")
                }
                while let next = try await group.next() {
                    if let redirect = next {
                        group.cancelAll()
                        return redirect
                    }
                }
                throw LatchError(code: .userCanceled, message: "The sign-in ended without a redirect.")
            }
        } catch let error as LatchError {
            throw error
        } catch {
            if ServerErrorMapping.isCancellation(error) {
                throw ServerErrorMapping.cancelled(error, correlationID: flow.id)
            }
            throw LatchError(code: .internal, message: "The browser failed: \(error)", underlyingError: error)
        }
    }
}

/// One device-code sign-in (RFC 8628 § 3.1-3.5).
struct DeviceCodeSignIn: Sendable {
    let flow: FlowContext
    let scopes: [String]

    func run(onCode: @Sendable (LatchDeviceCode) -> Void) async throws -> LatchTokenResult {
        let configuration = flow.configuration
        let authorization = try await flow.post(
            "oauth2/v2.0/devicecode", ["scope": scopes.joined(separator: " ")], .repeatable)
        guard let deviceCode = authorization.deviceCode, let userCode = authorization.userCode,
            let verification = authorization.verificationURI.flatMap(URL.init(string:))
        else {
            throw LatchError(
                code: .unexpectedResponse,
                message: "The device authorization response lacks device_code, user_code or verification_uri.")
        }
        let issued = configuration.clock()
        let lifetime = TimeInterval(authorization.expiresIn ?? 900)
        var interval = TimeInterval(authorization.interval ?? 5)
        let code = LatchDeviceCode(
            userCode: userCode, verificationURI: verification,
            verificationURIComplete: authorization.verificationURIComplete.flatMap(URL.init(string:)),
            expiresOn: issued.addingTimeInterval(lifetime), interval: interval, message: authorization.message)
        onCode(code)
        let started = ContinuousClock.now
        while true {
            do {
                try await Task.sleep(nanoseconds: UInt64(max(interval, 0.05) * 1_000_000_000))
            } catch {
                throw ServerErrorMapping.cancelled(error, correlationID: flow.id)
            }
            guard ContinuousClock.now - started < .seconds(lifetime) else {
                throw LatchError(
                    code: .deviceCodeExpired, message: "The device code expired before the sign-in was approved; start again.")
            }
            do {
                let reply = try await flow.session.channel.post(
                    "oauth2/v2.0/token",
                    ["grant_type": ServerErrorMapping.GrantType.deviceCode, "device_code": deviceCode], .repeatable,
                    correlationID: flow.id, retries: false)
                let result = try await flow.session.tokens.save(reply, username: "")
                try DeclinedScopes.check(requested: scopes, granted: reply.scope)
                return result
            } catch let error as LatchError where error.oauthError == "authorization_pending" {
                continue
            } catch let error as LatchError where error.oauthError == "slow_down" {
                interval += 5
                configuration.logger.log(
                    .debug, "flow=device_code step=poll outcome=slow_down interval=\(Int(interval))s correlation_id=\(flow.id)")
            }
        }
    }
}
