import Foundation
import LatchHTTP

extension HostedPagesAPI {
    /// The pages' form endpoint.
    func formAction(_ call: PageCall) -> String { "\(call.tenantPath)/login" }

    /// The redirect-URI origin a page of `interaction` may be redirected to after its POST.
    func formTargets(_ interaction: PageInteraction) -> [String] {
        interaction.request.flatMap { AuthorizationResponse.formTarget($0.redirectURI) }.map { [$0] } ?? []
    }

    /// Renders `page` with the form `id` of `interaction`.
    func render(
        _ call: inout PageCall, _ interaction: PageInteraction, page: HostedPage, formID: String,
        fields: [HostedPage.Field], buttons: [HostedPage.Button], links: [HostedPage.Link] = []
    ) throws -> HTTPResponse {
        var page = page
        page.form = HostedPage.Form(
            id: formID, action: formAction(call), hidden: try hiddenFields(call, interaction), fields: fields,
            buttons: buttons)
        page.links = links
        return page.response(chrome(call, formTargets: formTargets(interaction)))
    }

    /// A link to another page of the same interaction (`login?go=…`).
    func link(_ call: PageCall, _ interaction: PageInteraction, go: String) throws -> String {
        let sealed = try services.pageState.seal(interaction, binding: call.binding)
        return "\(call.tenantPath)/login?go=\(go)&\(Self.stateField)=\(sealed)"
    }

    /// The display name of `client`.
    func appName(_ client: Client) -> String { client.name.isEmpty ? client.id : client.name }

    func signInPage(
        _ call: inout PageCall, _ interaction: PageInteraction, client: Client, errors: PageErrors = PageErrors()
    ) throws -> HTTPResponse {
        let text = call.text
        var interaction = interaction
        interaction.stage = .signIn
        let page = HostedPage(
            status: errors.status, title: text.signInTitle,
            paragraphs: [text.signInLead.replacingOccurrences(of: "{app}", with: appName(client))], alert: errors.alert)
        return try render(
            &call, interaction, page: page, formID: "signin",
            fields: [
                HostedPage.Field(
                    name: "username", label: text.email, type: "email", autocomplete: "username",
                    value: interaction.username, error: errors.fields["username"]),
                HostedPage.Field(
                    name: "password", label: text.password, type: "password", autocomplete: "current-password",
                    error: errors.fields["password"], required: false),
            ],
            buttons: [
                HostedPage.Button(name: "action", value: "password", label: text.signIn),
                HostedPage.Button(name: "action", value: "send_code", label: text.sendCode, secondary: true),
            ],
            links: [
                HostedPage.Link(id: "signup-link", href: try link(call, interaction, go: "signup"), label: text.createAccount),
                HostedPage.Link(id: "reset-link", href: try link(call, interaction, go: "reset"), label: text.forgotPassword),
            ])
    }

    /// The page asking for a code: after "e-mail me a code", for a second factor, during sign-up,
    /// reset or method registration.
    func codePage(
        _ call: inout PageCall, _ interaction: PageInteraction, errors: PageErrors = PageErrors()
    ) throws -> HTTPResponse {
        let text = call.text
        let target = interaction.target ?? ""
        let secondFactor = interaction.stage == .secondFactor
        let page = HostedPage(
            status: errors.status, title: secondFactor ? text.mfaTitle : text.codeTitle,
            paragraphs: [(secondFactor ? text.mfaLead : text.codeLead).replacingOccurrences(of: "{target}", with: target)],
            alert: errors.alert)
        return try render(
            &call, interaction, page: page, formID: secondFactor ? "mfa" : "code",
            fields: [
                HostedPage.Field(
                    name: "code", label: text.code6, autocomplete: "one-time-code", error: errors.fields["code"],
                    inputMode: "numeric")
            ],
            buttons: [HostedPage.Button(name: "action", value: "verify_code", label: text.verify)])
    }

    func registerPage(
        _ call: inout PageCall, _ interaction: PageInteraction, errors: PageErrors = PageErrors()
    ) throws -> HTTPResponse {
        let text = call.text
        let page = HostedPage(
            status: errors.status, title: text.registerTitle, paragraphs: [text.registerLead], alert: errors.alert)
        return try render(
            &call, interaction, page: page, formID: "register",
            fields: [
                HostedPage.Field(
                    name: "contact", label: text.contact, autocomplete: "email", value: interaction.username,
                    error: errors.fields["contact"])
            ],
            buttons: [
                HostedPage.Button(name: "channel", value: "email", label: text.channelEmail),
                HostedPage.Button(name: "channel", value: "sms", label: text.channelSMS, secondary: true),
            ])
    }

    func signUpPage(
        _ call: inout PageCall, _ interaction: PageInteraction, client: Client, errors: PageErrors = PageErrors(),
        attributesOnly: [AttributeDefinition]? = nil
    ) throws -> HTTPResponse {
        let text = call.text
        var fields: [HostedPage.Field] = []
        if attributesOnly == nil {
            fields.append(
                HostedPage.Field(
                    name: "username", label: text.email, type: "email", autocomplete: "username",
                    value: interaction.username, error: errors.fields["username"]))
            fields.append(
                HostedPage.Field(
                    name: "password", label: text.password, type: "password", autocomplete: "new-password",
                    error: errors.fields["password"], required: call.tenant.settings.passwordRequiredOnSignUp))
        }
        for attribute in attributesOnly ?? call.tenant.settings.requiredAttributes {
            fields.append(
                HostedPage.Field(
                    name: "attr_\(attribute.name)", label: attribute.name.replacingOccurrences(of: "_", with: " "),
                    error: errors.fields["attr_\(attribute.name)"], required: attribute.required))
        }
        let page = HostedPage(status: errors.status, title: text.signUpTitle, alert: errors.alert)
        return try render(
            &call, interaction, page: page, formID: "signup", fields: fields,
            buttons: [HostedPage.Button(name: "action", value: "signup", label: text.signUpButton)],
            links: [HostedPage.Link(id: "signin-link", href: try link(call, interaction, go: "signin"), label: text.signIn)])
    }

    func resetPage(
        _ call: inout PageCall, _ interaction: PageInteraction, client: Client, errors: PageErrors = PageErrors()
    ) throws -> HTTPResponse {
        let text = call.text
        let page = HostedPage(status: errors.status, title: text.resetTitle, paragraphs: [text.resetLead], alert: errors.alert)
        return try render(
            &call, interaction, page: page, formID: "reset",
            fields: [
                HostedPage.Field(
                    name: "username", label: text.email, type: "email", autocomplete: "username",
                    value: interaction.username, error: errors.fields["username"])
            ],
            buttons: [HostedPage.Button(name: "action", value: "send_code", label: text.sendCodeButton)],
            links: [HostedPage.Link(id: "signin-link", href: try link(call, interaction, go: "signin"), label: text.signIn)])
    }

    func newPasswordPage(
        _ call: inout PageCall, _ interaction: PageInteraction, errors: PageErrors = PageErrors()
    ) throws -> HTTPResponse {
        let text = call.text
        let page = HostedPage(status: errors.status, title: text.newPasswordTitle, alert: errors.alert)
        return try render(
            &call, interaction, page: page, formID: "new-password",
            fields: [
                HostedPage.Field(
                    name: "new_password", label: text.newPassword, type: "password", autocomplete: "new-password",
                    error: errors.fields["new_password"])
            ],
            buttons: [HostedPage.Button(name: "action", value: "save", label: text.save)])
    }

    func chooserPage(
        _ call: inout PageCall, _ interaction: PageInteraction, client: Client, accounts: [SignedInAccount]
    ) throws -> HTTPResponse {
        let text = call.text
        var buttons = accounts.map { account in
            HostedPage.Button(name: "account", value: account.session.id, label: account.user.email)
        }
        buttons.append(HostedPage.Button(name: "account", value: "other", label: text.useAnother, secondary: true))
        let page = HostedPage(
            title: text.chooserTitle, paragraphs: [text.signInLead.replacingOccurrences(of: "{app}", with: appName(client))])
        return try render(&call, interaction, page: page, formID: "chooser", fields: [], buttons: buttons)
    }

    func consentPage(
        _ call: inout PageCall, _ interaction: PageInteraction, client: Client, scopes: [String]
    ) throws -> HTTPResponse {
        let text = call.text
        let page = HostedPage(
            title: text.consentTitle, paragraphs: [text.consentLead.replacingOccurrences(of: "{app}", with: appName(client))],
            list: scopes.map { ScopeDescription.describe($0, text) })
        return try render(
            &call, interaction, page: page, formID: "consent", fields: [],
            buttons: [
                HostedPage.Button(name: "decision", value: "allow", label: text.allow),
                HostedPage.Button(name: "decision", value: "deny", label: text.deny, secondary: true),
            ])
    }
}

/// What a refused form shows: messages tied to fields, one for the whole form, and the status.
struct PageErrors {
    var fields: [String: String] = [:]
    var alert: String?
    var status = 200
}

/// What each scope lets a client do, for the consent and device pages, in the page's language;
/// the scope's own name follows in brackets, and other scopes are shown by name.
enum ScopeDescription {
    static func describe(_ scope: String, _ text: PageText) -> String {
        switch scope {
        case "openid": "\(text.scopeOpenID) (openid)"
        case "profile": "\(text.scopeProfile) (profile)"
        case "email": "\(text.scopeEmail) (email)"
        case "offline_access": "\(text.scopeOffline) (offline_access)"
        default: scope
        }
    }
}
