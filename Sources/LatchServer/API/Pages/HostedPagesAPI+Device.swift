import Foundation
import LatchHTTP

extension HostedPagesAPI {
    /// `GET oauth2/v2.0/devicelogin[?user_code=…]`: the device verification page (RFC 8628 § 3.3).
    /// A code in the URL (`verification_uri_complete`, § 3.3.1) only fills the field: the user
    /// still confirms, after seeing which application asks (§ 5.4, remote phishing).
    func devicePage(_ call: inout PageCall, errors: PageErrors = PageErrors(), code: String? = nil) throws
        -> HTTPResponse
    {
        let interaction = PageInteraction(
            purpose: .device, request: nil, clientID: "", stage: .deviceCode,
            userCode: code ?? call.request.query["user_code"].map { String($0.prefix(16)) }, startedAt: now())
        let text = call.text
        var page = HostedPage(
            status: errors.status, title: text.deviceTitle, paragraphs: [text.deviceLead], alert: errors.alert)
        page.form = HostedPage.Form(
            id: "device", action: formAction(call), hidden: try hiddenFields(call, interaction),
            fields: [
                HostedPage.Field(
                    name: "user_code", label: text.userCode, autocomplete: "one-time-code", value: interaction.userCode,
                    error: errors.fields["user_code"])
            ],
            buttons: [HostedPage.Button(name: "action", value: "continue", label: text.continueButton)])
        return page.response(chrome(call))
    }

    /// The user code was posted: the confirmation page for the browser's account, or the
    /// sign-in (or account chooser) first.
    func deviceCodeEntered(_ call: inout PageCall, _ interaction: inout PageInteraction, form: [String: String]) throws
        -> HTTPResponse
    {
        let pending: PendingDeviceAuthorization
        do {
            pending = try services.deviceAuthorizations.pending(
                userCode: form["user_code"], tenant: call.tenant, remoteAddress: call.request.remoteAddress)
        } catch AuthFailure.deviceAuthorization, AuthFailure.missingParameter(.userCode) {
            var errors = PageErrors(status: 400)
            errors.fields["user_code"] = call.text.invalidUserCode
            return try devicePage(&call, errors: errors, code: form["user_code"].map { String($0.prefix(16)) })
        }
        let client = try services.directory.client(id: pending.clientID, in: call.tenant)
        interaction.clientID = client.id
        interaction.userCode = pending.userCode
        interaction.deviceScopes = pending.scopes
        let accounts = try signedInAccounts(call).filter { !$0.user.disabled }
        switch accounts.count {
        case 0:
            return try signInPage(&call, interaction, client: client)
        case 1:
            interaction.selected = accounts[0].session.id
            return try deviceConfirmPage(&call, &interaction, client: client)
        default:
            interaction.stage = .chooser
            return try chooserPage(&call, interaction, client: client, accounts: accounts)
        }
    }

    /// "Sign in on your device as …?" with the application's name and scopes.
    func deviceConfirmPage(_ call: inout PageCall, _ interaction: inout PageInteraction, client: Client) throws
        -> HTTPResponse
    {
        guard let account = try deviceAccount(call, interaction) else {
            interaction.selected = nil
            interaction.signedIn = nil
            return try signInPage(&call, interaction, client: client)
        }
        interaction.selected = account.session.id
        interaction.signedIn = nil
        interaction.stage = .deviceConfirm
        let text = call.text
        let page = HostedPage(
            title: text.deviceConfirmTitle,
            paragraphs: [
                text.deviceConfirmLead.replacingOccurrences(of: "{app}", with: appName(client))
                    .replacingOccurrences(of: "{user}", with: account.user.email)
            ], list: interaction.deviceScopes.map { ScopeDescription.describe($0, text) })
        return try render(
            &call, interaction, page: page, formID: "device-confirm", fields: [],
            buttons: [
                HostedPage.Button(name: "decision", value: "allow", label: text.allow),
                HostedPage.Button(name: "decision", value: "deny", label: text.deny, secondary: true),
            ])
    }

    /// The account the device page acts for: the one signed in or picked during these pages.
    private func deviceAccount(_ call: PageCall, _ interaction: PageInteraction) throws -> SignedInAccount? {
        guard let id = interaction.signedIn ?? interaction.selected else { return nil }
        return try signedInAccounts(call).first { $0.session.id == id && !$0.user.disabled }
    }

    /// The forms of the device pages after the code: the confirmation's decision.
    func deviceStep(
        _ call: inout PageCall, _ interaction: inout PageInteraction, form: [String: String], client: Client
    ) throws -> HTTPResponse {
        try deviceDecision(&call, interaction, allow: form["decision"] == "allow")
    }

    /// Applies the user's decision and says so. A tenant policy that wants a second factor the
    /// session lacks sends the user through the sign-in with it first.
    func deviceDecision(_ call: inout PageCall, _ interaction: PageInteraction, allow: Bool) throws -> HTTPResponse {
        guard let userCode = interaction.userCode else { return errorPage(&call, status: 400, message: call.text.expired) }
        let text = call.text
        do {
            guard allow else {
                try services.deviceAuthorizations.deny(userCode: userCode, tenant: call.tenant)
                return HostedPage(title: text.deviceDoneTitle, headingID: "done", paragraphs: [text.deviceDenied])
                    .response(chrome(call))
            }
            guard let account = try deviceAccount(call, interaction) else {
                return errorPage(&call, status: 400, message: text.expired)
            }
            try services.deviceAuthorizations.approve(
                userCode: userCode, tenant: call.tenant, userID: account.user.id, authTime: account.session.authTime,
                amr: account.session.amr)
            return HostedPage(title: text.deviceDoneTitle, headingID: "done", paragraphs: [text.deviceDone])
                .response(chrome(call))
        } catch AuthFailure.claimsChallenge {
            var next = interaction
            next.secondFactorAsked = true
            next.selected = nil
            next.signedIn = nil
            let client = try services.directory.client(id: interaction.clientID, in: call.tenant)
            return try signInPage(&call, next, client: client)
        } catch AuthFailure.deviceAuthorization {
            return errorPage(&call, status: 400, message: text.invalidUserCode)
        }
    }
}
