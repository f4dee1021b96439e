import LatchWire

/// Parses the native-auth form parameters into the domain's typed values. The domain never sees
/// the wire strings (`oob password redirect`, `grant_type=oob`).
enum NativeAuthParameters {
    /// `challenge_type`: a space-separated list of `oob`, `password`, `redirect`.
    /// - Throws: ``AuthFailure/missingParameter(_:)`` when absent, ``AuthFailure/unsupportedChallengeType``
    ///   when it lacks `redirect` (MSAL always sends it; the browser fallback must stay possible).
    static func support(_ text: String?) throws -> ChallengeSupport {
        guard let text, !text.isEmpty else { throw AuthFailure.missingParameter(.challengeType) }
        var support: ChallengeSupport = []
        for type in ChallengeType.parseList(text) {
            switch type {
            case .password: support.insert(.password)
            case .oob: support.insert(.oneTimeCode)
            case .redirect: support.insert(.browser)
            default: continue
            }
        }
        guard support.contains(.browser) else { throw AuthFailure.unsupportedChallengeType }
        return support
    }

    /// `challenge_type` where it may be omitted (the flow's declaration applies).
    static func optionalSupport(_ text: String?) throws -> ChallengeSupport? {
        guard let text, !text.isEmpty else { return nil }
        return try support(text)
    }

    /// `capabilities`: a space-separated list; unknown values are ignored.
    static func capabilities(_ text: String?) -> ClientCapabilities {
        var capabilities: ClientCapabilities = []
        for word in (text ?? "").split(separator: " ") {
            switch Capability(rawValue: String(word)) {
            case .mfaRequired: capabilities.insert(.mfa)
            case .registrationRequired: capabilities.insert(.registration)
            default: continue
            }
        }
        return capabilities
    }

    /// `grant_type`, checked for presence.
    static func grantType(_ form: [String: String]) throws -> String {
        guard let grant = form["grant_type"], !grant.isEmpty else { throw AuthFailure.missingParameter(.grantType) }
        return grant
    }

    /// The `oauth2/v2.0/token` grant.
    static func tokenGrant(_ form: [String: String]) throws -> TokenGrant {
        switch try grantType(form) {
        case "password":
            .password(continuationToken: form["continuation_token"], username: form["username"], password: form["password"])
        case "oob": .oneTimeCode(continuationToken: form["continuation_token"], code: form["oob"])
        case "continuation_token": .continuationToken(form["continuation_token"], username: form["username"])
        case "mfa_oob": .secondFactorCode(continuationToken: form["continuation_token"], code: form["oob"])
        case "refresh_token": .refreshToken(form["refresh_token"])
        case let other: throw AuthFailure.unsupportedGrantType(other)
        }
    }

    /// `device_token`: the device token of an earlier sign-in (``DeviceTrust``). Absent, oversized
    /// or malformed text is no token at all; the domain checks the rest, and never answers
    /// differently for a bad one.
    static func deviceToken(_ form: [String: String]) -> PresentedDeviceToken? {
        form["device_token"].flatMap(PresentedDeviceToken.init)
    }

    /// The `signup/v1.0/continue` submission.
    static func signUpSubmission(_ form: [String: String]) throws -> SignUpSubmission {
        switch try grantType(form) {
        case "oob": .oneTimeCode(form["oob"])
        case "password": .password(form["password"])
        case "attributes": .attributes(try AttributesParameter.parse(form["attributes"]))
        case let other: throw AuthFailure.unsupportedGrantType(other)
        }
    }

    /// `client_info`: MSAL's native `/token` sends `true`, its silent refresh `1`; both ask for it.
    static func wantsClientInfo(_ form: [String: String]) -> Bool {
        guard let value = form["client_info"]?.lowercased() else { return false }
        return value == "1" || value == "true"
    }
}
