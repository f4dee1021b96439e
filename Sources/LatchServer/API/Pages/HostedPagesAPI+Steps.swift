import Foundation
import LatchCrypto
import LatchHTTP

extension HostedPagesAPI {
    /// What the hosted pages can run of the native flows: passwords and codes, the second factor
    /// and method registration.
    static let support: ChallengeSupport = [.password, .oneTimeCode]
    static let capabilities: ClientCapabilities = [.mfa, .registration]

    /// Handles the form the interaction expects.
    func step(
        _ call: inout PageCall, _ interaction: inout PageInteraction, form: [String: String], client: Client
    ) throws -> HTTPResponse {
        var context = ClientContext(tenant: call.tenant, client: client, remoteAddress: call.request.remoteAddress)
        // A fresh cookie value per step: only a sign-in that succeeds puts it (and the browser's
        // earlier sessions) to use.
        context.browserCookie = SecureRandom.token(byteCount: 32)
        do {
            switch interaction.stage {
            case .signIn:
                return try signIn(&call, &interaction, form: form, context: context)
            case .signInCode, .secondFactor:
                let grant: TokenGrant =
                    interaction.stage == .signInCode
                    ? .oneTimeCode(continuationToken: interaction.flow, code: form["code"])
                    : .secondFactorCode(continuationToken: interaction.flow, code: form["code"])
                let outcome = try services.signIn.token(context, request: tokenRequest(interaction, grant: grant))
                return try finishSignIn(&call, &interaction, outcome: outcome, context: context)
            case .register:
                return try register(&call, &interaction, form: form, context: context)
            case .registerCode:
                let grant = try services.methodRegistration.continue(
                    context, continuationToken: interaction.flow, proof: .oneTimeCode(form["code"]))
                return try signInWithContinuation(&call, &interaction, grant.continuationToken, context: context)
            case .chooser:
                guard let account = form["account"], account != "other" else {
                    interaction.selected = nil
                    return try signInPage(&call, interaction, client: client)
                }
                interaction.selected = account
                return try proceed(&call, &interaction, client: client)
            case .consent:
                guard form["decision"] == "allow" else {
                    guard let request = interaction.request else { return try deviceDecision(&call, interaction, allow: false) }
                    return AuthorizationResponse.error(
                        .accessDenied, description: "The user denied the request.", request: request, call: call,
                        issuer: issuer(call))
                }
                if let id = interaction.selected ?? interaction.signedIn, let request = interaction.request,
                    let account = try signedInAccounts(call).first(where: { $0.session.id == id })
                {
                    try services.authorization.recordConsent(session: account.session, client: client, scopes: request.scopes)
                }
                interaction.consented = true
                return try proceed(&call, &interaction, client: client)
            case .signUp, .signUpAttributes:
                return try signUp(&call, &interaction, form: form, context: context)
            case .signUpCode:
                return try signUpProgress(
                    &call, &interaction,
                    try services.signUp.continue(
                        context, continuationToken: interaction.flow, submission: .oneTimeCode(form["code"])),
                    context: context)
            case .reset:
                interaction.username = form["username"]
                guard
                    case .started(let token) = try services.passwordReset.start(
                        context, username: form["username"], support: [.oneTimeCode], capabilities: Self.capabilities)
                else { return errorPage(&call, status: 400, message: call.text.expired) }
                return try codeSent(
                    &call, &interaction,
                    try services.passwordReset.challenge(context, continuationToken: token, support: nil), stage: .resetCode)
            case .resetCode:
                let grant = try services.passwordReset.continue(context, continuationToken: interaction.flow, code: form["code"])
                interaction.flow = grant.continuationToken
                interaction.stage = .newPassword
                return try newPasswordPage(&call, interaction)
            case .newPassword:
                let submitted = try services.passwordReset.submit(
                    context, continuationToken: interaction.flow, newPassword: form["new_password"])
                let completion = try services.passwordReset.pollCompletion(
                    context, continuationToken: submitted.continuationToken)
                return try signInWithContinuation(&call, &interaction, completion.continuationToken, context: context)
            case .deviceCode, .deviceConfirm:
                return try deviceStep(&call, &interaction, form: form, client: client)
            }
        } catch let failure as AuthFailure {
            return try refused(&call, interaction, failure: failure, client: client)
        }
    }

    /// After a sign-in or a page decision: the authorization's next step, or the device page's.
    func proceed(_ call: inout PageCall, _ interaction: inout PageInteraction, client: Client) throws -> HTTPResponse {
        switch interaction.purpose {
        case .authorize: return try continueAuthorization(&call, &interaction, client: client)
        case .device: return try deviceConfirmPage(&call, &interaction, client: client)
        }
    }

    /// The token request the pages make of the sign-in service: the authorization's scopes, and a
    /// claims request for the `mfa` class when the request asked for it (`acr_values` or `claims`).
    func tokenRequest(_ interaction: PageInteraction, grant: TokenGrant) -> TokenRequest {
        let request = interaction.request
        var claims = request?.claims
        let asked = request?.secondFactorAsked == true || interaction.secondFactorAsked
        if asked, claims.map(ClaimsRequest.asksForSecondFactor) != true { claims = TokenService.secondFactorClaims }
        let scopes = request?.scopes ?? (interaction.deviceScopes.isEmpty ? ["openid"] : interaction.deviceScopes)
        return TokenRequest(
            grant: grant, scope: scopes.joined(separator: " "), claims: claims, capabilities: Self.capabilities)
    }

    private func signIn(
        _ call: inout PageCall, _ interaction: inout PageInteraction, form: [String: String], context: ClientContext
    ) throws -> HTTPResponse {
        interaction.username = form["username"]
        let byCode = form["action"] == "send_code"
        if !byCode, (form["password"] ?? "").isEmpty {
            var errors = PageErrors(status: 400)
            errors.fields["password"] = call.text.required
            if (form["username"] ?? "").isEmpty { errors.fields["username"] = call.text.required }
            return try signInPage(&call, interaction, client: context.client, errors: errors)
        }
        guard
            case .started(let token) = try services.signIn.initiate(
                context, username: form["username"], support: Self.support, capabilities: Self.capabilities)
        else { return errorPage(&call, status: 400, message: call.text.expired) }
        let challenge = try services.signIn.challenge(
            context, continuationToken: token, support: byCode ? [.oneTimeCode] : Self.support)
        guard case .password(let next) = challenge else {
            return try codeSent(&call, &interaction, challenge, stage: .signInCode)
        }
        let outcome = try services.signIn.token(
            context,
            request: tokenRequest(
                interaction, grant: .password(continuationToken: next, username: nil, password: form["password"])))
        return try finishSignIn(&call, &interaction, outcome: outcome, context: context)
    }

    /// A code went out: the code page for `stage`.
    func codeSent(
        _ call: inout PageCall, _ interaction: inout PageInteraction, _ challenge: ChallengeOutcome,
        stage: PageInteraction.Stage
    ) throws -> HTTPResponse {
        switch challenge {
        case .oneTimeCode(let token, _, let label, _, _):
            interaction.flow = token
            interaction.target = label
            interaction.stage = stage
            return try codePage(&call, interaction)
        case .password(let token):
            // Only a sign-in without a code channel asks for a password here.
            interaction.flow = token
            return errorPage(&call, status: 400, message: call.text.expired)
        case .browserRequired:
            return errorPage(&call, status: 400, message: call.text.delivery)
        }
    }

    /// Where a sign-in ended: signed in, or the second-factor or registration page.
    func finishSignIn(
        _ call: inout PageCall, _ interaction: inout PageInteraction, outcome: SessionOutcome, context: ClientContext
    ) throws -> HTTPResponse {
        switch outcome {
        case .browserSignedIn(let session):
            if let renewed = context.browserCookie {
                if let previous = call.browser {
                    try services.browserSessions.move(from: previous, to: renewed, tenant: call.tenant)
                }
                call.setBrowserCookie(renewed)
            }
            interaction.signedIn = session.id
            interaction.selected = nil
            interaction.flow = nil
            return try proceed(&call, &interaction, client: context.client)
        case .secondFactorRequired(let token, let methods):
            let challenge = try services.signIn.challenge(
                context, continuationToken: token, support: nil, methodID: methods.first?.id)
            return try codeSent(&call, &interaction, challenge, stage: .secondFactor)
        case .methodRegistrationRequired(let token):
            interaction.flow = token
            interaction.stage = .register
            return try registerPage(&call, interaction)
        case .issued, .browserRequired:
            return errorPage(&call, status: 400, message: call.text.expired)
        }
    }

    private func register(
        _ call: inout PageCall, _ interaction: inout PageInteraction, form: [String: String], context: ClientContext
    ) throws -> HTTPResponse {
        let challenge = try services.methodRegistration.challenge(
            context, continuationToken: interaction.flow, challengeType: "oob", target: form["contact"],
            channel: form["channel"] ?? "email")
        switch challenge {
        case .oneTimeCode(let token, let target, let channel, _, _):
            interaction.flow = token
            interaction.target = ContactLabel.mask(FlowState.PendingContact(channel: channel, target: target))
            interaction.stage = .registerCode
            return try codePage(&call, interaction)
        case .preverified(let token):
            let grant = try services.methodRegistration.continue(context, continuationToken: token, proof: .preverified)
            return try signInWithContinuation(&call, &interaction, grant.continuationToken, context: context)
        case .browserRequired:
            return errorPage(&call, status: 400, message: call.text.delivery)
        }
    }

    /// Signs in with the token a finished sign-up, reset or registration gave.
    func signInWithContinuation(
        _ call: inout PageCall, _ interaction: inout PageInteraction, _ token: String, context: ClientContext
    ) throws -> HTTPResponse {
        let outcome = try services.signIn.token(
            context, request: tokenRequest(interaction, grant: .continuationToken(token, username: nil)))
        return try finishSignIn(&call, &interaction, outcome: outcome, context: context)
    }

    private func signUp(
        _ call: inout PageCall, _ interaction: inout PageInteraction, form: [String: String], context: ClientContext
    ) throws -> HTTPResponse {
        var attributes: [String: String?] = [:]
        for attribute in call.tenant.settings.requiredAttributes {
            if let value = form["attr_\(attribute.name)"], !value.isEmpty { attributes[attribute.name] = value }
        }
        if interaction.stage == .signUpAttributes {
            return try signUpProgress(
                &call, &interaction,
                try services.signUp.continue(context, continuationToken: interaction.flow, submission: .attributes(attributes)),
                context: context)
        }
        interaction.username = form["username"]
        guard
            case .started(let token) = try services.signUp.start(
                context, username: form["username"], password: form["password"], attributes: attributes,
                support: Self.support, capabilities: Self.capabilities)
        else { return errorPage(&call, status: 400, message: call.text.expired) }
        return try codeSent(
            &call, &interaction, try services.signUp.challenge(context, continuationToken: token, support: nil),
            stage: .signUpCode)
    }

    private func signUpProgress(
        _ call: inout PageCall, _ interaction: inout PageInteraction, _ progress: SignUpProgress, context: ClientContext
    ) throws -> HTTPResponse {
        switch progress {
        case .completed(let grant):
            return try signInWithContinuation(&call, &interaction, grant.continuationToken, context: context)
        case .attributesRequired(let token, let definitions):
            interaction.flow = token
            interaction.stage = .signUpAttributes
            return try signUpPage(&call, interaction, client: context.client, attributesOnly: definitions)
        case .passwordRequired(let token):
            interaction.flow = nil
            interaction.stage = .signUp
            _ = token
            var errors = PageErrors(status: 400)
            errors.fields["password"] = call.text.required
            return try signUpPage(&call, interaction, client: context.client, errors: errors)
        }
    }

    /// A refused form: the same page again with the failure next to its field, or an error page
    /// when the interaction cannot go on.
    func refused(
        _ call: inout PageCall, _ interaction: PageInteraction, failure: AuthFailure, client: Client
    ) throws -> HTTPResponse {
        let text = call.text
        var errors = PageErrors(status: 400)
        switch failure {
        case .invalidCredentials:
            errors.fields["password"] = text.wrongPassword
        case .userNotFound:
            errors.fields["username"] = text.noAccount
        case .missingParameter(.username), .missingParameter(.email):
            errors.fields["username"] = text.required
        case .invalidParameter(.username), .invalidParameter(.email):
            errors.fields["username"] = text.invalidValue
        case .missingParameter(.password), .missingParameter(.newPassword):
            errors.fields[interaction.stage == .newPassword ? "new_password" : "password"] = text.required
        case .passwordPolicy(let violation):
            errors.fields[interaction.stage == .newPassword ? "new_password" : "password"] =
                violation.explanation
        case .invalidCode, .missingParameter(.oneTimeCode), .invalidParameter(.oneTimeCode):
            errors.fields["code"] = text.wrongCode
        case .userAlreadyExists:
            errors.fields["username"] = text.accountExists
        case .invalidAttributes(let names):
            for name in names { errors.fields["attr_\(name)"] = text.invalidValue }
        case .missingParameter(.attributes):
            for attribute in call.tenant.settings.requiredAttributes { errors.fields["attr_\(attribute.name)"] = text.required }
        case .invalidVerificationContact, .verificationContactBlocked:
            errors.fields["contact"] = text.invalidValue
        case .userDisabled:
            errors.alert = text.disabled
        case .deliveryUnavailable:
            errors.alert = text.delivery
        case .tooManyAttempts(let retryAfter):
            throw AuthFailure.tooManyAttempts(retryAfter: retryAfter)
        case .codeExpired, .codeAttemptsExceeded, .invalidContinuationToken, .continuationTokenExpired, .outOfOrder:
            return errorPage(&call, status: 400, message: text.expired)
        default:
            throw failure
        }
        switch interaction.stage {
        case .signIn: return try signInPage(&call, interaction, client: client, errors: errors)
        case .signInCode, .secondFactor, .registerCode, .signUpCode, .resetCode:
            return try codePage(&call, interaction, errors: errors)
        case .register: return try registerPage(&call, interaction, errors: errors)
        case .signUp, .signUpAttributes: return try signUpPage(&call, interaction, client: client, errors: errors)
        case .reset: return try resetPage(&call, interaction, client: client, errors: errors)
        case .newPassword: return try newPasswordPage(&call, interaction, errors: errors)
        case .chooser, .consent, .deviceCode, .deviceConfirm:
            return errorPage(&call, status: 400, message: text.expired)
        }
    }
}
