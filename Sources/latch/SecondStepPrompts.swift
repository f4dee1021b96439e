import Latch

/// Answers the second steps of a sign-in (``SignInSteps``): the second factor, and the
/// registration of a strong method when the account has none yet. At a terminal it asks (a
/// numbered list of methods or channels, the contact to register, the codes; a rejected answer is
/// asked again); otherwise `--mfa-method`, `--register-email` and `--register-phone` decide, and
/// each code is `LATCH_MFA_CODE` / `LATCH_REGISTRATION_CODE` or one line of standard input.
struct SecondStepPrompts: Sendable {
    /// The shared context.
    let context: CommandContext

    /// A strong method registered during the sign-in.
    struct Registration: Sendable {
        /// Its channel.
        let channel: LatchChannelType
        /// The contact registered, as given.
        let contact: String
        /// Whether the server already trusted the contact (`preverified`), so no code was needed.
        let preverified: Bool
    }

    /// Proves the second factor: picks one of the state's methods (``mfaMethod(among:)``), has a
    /// code sent through it and submits the code. At a terminal, a method the server blocks is
    /// left out and another one offered.
    /// - Returns: the next step and the method the code went through.
    /// - Throws: ``UsageError`` when `--mfa-method` names none of the methods; ``LatchError`` as
    ///   the SDK reports it (``LatchError/Code/invalidChallenge`` for a wrong code, …).
    func verify(_ state: MFARequiredState) async throws -> (step: SignInStep, method: LatchAuthMethod) {
        let prompter = context.prompter
        var methods = state.authMethods
        while true {
            let method = try mfaMethod(among: methods)
            let sent: MFARequiredState
            do {
                sent = try await state.requestChallenge(method: method)
            } catch let error as LatchError
                where error.code == .authMethodBlocked && prompter.isTerminal && context.options.mfaMethod == nil
                && methods.count > 1
            {
                context.warn(error)
                methods.removeAll { $0 == method }
                continue
            }
            let sentTo = sent.delivery?.sentTo ?? method.loginHint ?? ""
            let step = try await context.submitting({ try prompter.mfaCode(sentTo: sentTo) }) {
                try await sent.submitChallenge($0)
            }
            return (step, method)
        }
    }

    /// Registers a strong method: the channel and contact of `--register-email` or
    /// `--register-phone`, else (at a terminal) the ones the user picks and types; then submits
    /// the code sent to the contact, unless the server already trusts it.
    /// - Returns: the next step and what was registered.
    /// - Throws: ``UsageError`` without a terminal when neither option is given, or when the server
    ///   offers no method of the channel given; ``LatchError`` as the SDK reports it
    ///   (``LatchError/Code/invalidInput`` for a contact that is not valid, …).
    func register(_ methods: [LatchAuthMethod], _ state: RegisterStrongAuthState) async throws
        -> (step: SignInStep, registration: Registration)
    {
        let prompter = context.prompter
        let (method, preset) = try registrationMethod(among: methods)
        let (contact, challenged) = try await context.submitting(
            { try preset.map { Prompter.Answer(value: $0, interactive: false) } ?? prompter.text(Self.contactLabel(method)) },
            retryingOn: [.correctInput, .chooseAnotherMethod]
        ) { contact in
            let parameters = LatchChallengeAuthMethodParameters(authMethod: method, verificationContact: contact)
            return (contact, try await state.challengeAuthMethod(parameters: parameters))
        }
        switch challenged {
        case .completed(let result):
            return (.completed(result), Registration(channel: method.channel, contact: contact, preverified: true))
        case .verificationRequired(let verification):
            let step = try await context.submitting({
                try prompter.registrationCode(sentTo: verification.delivery.sentTo)
            }) { try await verification.submitChallenge($0) }
            return (step, Registration(channel: method.channel, contact: contact, preverified: false))
        @unknown default:
            throw SignInSteps.unsupportedStep
        }
    }

    /// The method `--mfa-method` names (an id, else a channel: the first method of it); without
    /// it, at a terminal with more than one method, the one the user picks; else the first.
    private func mfaMethod(among methods: [LatchAuthMethod]) throws -> LatchAuthMethod {
        guard let first = methods.first else {
            throw LatchError(code: .unexpectedResponse, message: "The server named no second-factor method.")
        }
        if let wanted = context.options.mfaMethod {
            guard let method = methods.first(where: { $0.id == wanted }) ?? Self.first(ofChannel: wanted, in: methods) else {
                throw UsageError(
                    "option '--mfa-method': the account has no method '\(wanted)'; it has "
                        + methods.map(Self.label).joined(separator: ", "))
            }
            return method
        }
        guard context.prompter.isTerminal, methods.count > 1 else { return first }
        let index = try context.prompter.choice("Choose the second factor:", methods.map(Self.label)) { answer in
            methods.firstIndex { $0.id == answer || $0.channel.value == answer.lowercased() }
        }
        return methods[index]
    }

    /// The kind of method to register and, when an option gave it, the contact.
    private func registrationMethod(among methods: [LatchAuthMethod]) throws -> (LatchAuthMethod, contact: String?) {
        let options = context.options
        let offered = methods.map(\.channel.value).joined(separator: " and ")
        let given: [(channel: LatchChannelType, contact: String)] = [
            options.registerEmail.map { (LatchChannelType.email, $0) }, options.registerPhone.map { (LatchChannelType.sms, $0) },
        ].compactMap { $0 }
        if !given.isEmpty {
            for method in methods {
                if let contact = given.first(where: { $0.channel == method.channel })?.contact { return (method, contact) }
            }
            throw UsageError(
                "the server offers no \(given.map(\.channel.value).joined(separator: " or ")) method to register, only \(offered)"
            )
        }
        guard let first = methods.first else {
            throw LatchError(code: .unexpectedResponse, message: "The server named no method to register.")
        }
        guard context.prompter.isTerminal else {
            throw UsageError(
                "the account must register a second factor (\(offered)): pass --register-email ADDRESS or "
                    + "--register-phone +E164",
                usage: options.subcommand.map(HelpText.usage))
        }
        guard methods.count > 1 else { return (first, nil) }
        let index = try context.prompter.choice("Register a second factor:", methods.map(Self.channelName)) { answer in
            methods.firstIndex { $0.channel.value == answer.lowercased() }
        }
        return (methods[index], nil)
    }

    /// The first of `methods` on the channel spelled `name` (`email`, `sms`).
    private static func first(ofChannel name: String, in methods: [LatchAuthMethod]) -> LatchAuthMethod? {
        methods.first { $0.channel == LatchChannelType(value: name) }
    }

    /// `email k***@e***.org (id 3f2a…)`.
    static func label(_ method: LatchAuthMethod) -> String {
        [method.channel.value, method.loginHint].compactMap { $0 }.joined(separator: " ") + " (id \(method.id))"
    }

    /// What a channel registers, for the choice.
    private static func channelName(_ method: LatchAuthMethod) -> String {
        switch method.channel {
        case .email: "email: an e-mail address"
        case .sms: "sms: a phone number"
        default: method.channel.value
        }
    }

    /// The prompt for the contact to register.
    private static func contactLabel(_ method: LatchAuthMethod) -> String {
        method.channel == .sms ? "Phone number to register (+E.164)" : "E-mail address to register"
    }
}
