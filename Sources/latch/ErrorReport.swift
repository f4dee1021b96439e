import Foundation
import Latch

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Turns a ``LatchError`` into what the user sees: a one-line explanation with the error name and
/// a recovery hint (`latch: wrong username or password (ERROR_WRONG_PASSWORD). Check the password,
/// or run 'latch reset-password'.`), and the `--json` error object.
struct ErrorReport: Sendable {
    /// The error.
    let error: LatchError
    /// The server the command talked to, for network hints.
    let server: String
    /// The credential file, for store hints.
    let cachePath: String
    /// The `--ca-file` in use, for certificate hints.
    var certificateAuthorityFile: String?

    /// The exit status for the error.
    var exitCode: ExitCode { ExitCode(for: error) }

    /// The human line for standard error (plus a correlation-id line for server-side failures).
    var humanText: String {
        var line = "latch: \(summary) (\(error.name))."
        if let hint { line += " " + hint }
        if let correlationID = error.correlationID,
            [.serverError, .internal, .unexpectedResponse].contains(error.code) || error.httpStatus.map({ $0 >= 500 }) == true
        {
            line += "\nlatch: correlation id \(correlationID)"
        }
        return line
    }

    /// The `--json` error object.
    var json: [String: JSONValue] {
        var object: [String: JSONValue] = [
            "code": .int(error.code.rawValue), "name": .string(error.name), "message": .string(error.message),
            "recovery": .string(Self.recoveryName(error.recovery)), "exit_code": .int(Int(exitCode.rawValue)),
            "hint": .optional(hint),
        ]
        if let failureReason = error.failureReason { object["failure_reason"] = .string(failureReason) }
        if let suberror = error.suberror { object["suberror"] = .string(suberror) }
        if let correlationID = error.correlationID { object["correlation_id"] = .string(correlationID) }
        if let retryAfter = error.retryAfter { object["retry_after"] = .double(retryAfter) }
        if let status = error.httpStatus { object["http_status"] = .int(status) }
        if !error.invalidAttributes.isEmpty {
            object["invalid_attributes"] = .array(error.invalidAttributes.map(JSONValue.string))
        }
        if let claims = error.claimsChallenge { object["claims_challenge"] = .string(claims) }
        if !error.grantedScopes.isEmpty { object["granted_scopes"] = .array(error.grantedScopes.map(JSONValue.string)) }
        if !error.declinedScopes.isEmpty { object["declined_scopes"] = .array(error.declinedScopes.map(JSONValue.string)) }
        if let policy = error.protectionPolicy { object["protection_policy"] = .string(policy) }
        return object
    }

    /// The stable snake-case name of a recovery.
    static func recoveryName(_ recovery: LatchError.Recovery) -> String {
        switch recovery {
        case .none: "none"
        case .retry: "retry"
        case .correctInput: "correct_input"
        case .resendCode: "resend_code"
        case .restartFlow: "restart_flow"
        case .signInAgain: "sign_in_again"
        case .useBrowser: "use_browser"
        case .signInInstead: "sign_in_instead"
        case .signUpInstead: "sign_up_instead"
        case .checkCredentialStore: "check_credential_store"
        case .chooseAnotherMethod: "choose_another_method"
        case .retryWithScopes: "retry_with_scopes"
        case .satisfyProtectionPolicy: "satisfy_protection_policy"
        @unknown default: "unknown"
        }
    }

    /// What went wrong, in lower case.
    private var summary: String {
        switch error.code {
        case .wrongPassword: "wrong username or password"
        case .invalidCode: "the code is incorrect"
        case .weakPassword:
            "the password does not meet the policy" + (error.failureReason.map { ": " + Self.sentence($0).lowercasedFirst } ?? "")
        case .invalidEmail: "the e-mail address is not valid"
        case .missingInput: Self.sentence(error.message).lowercasedFirst
        case .invalidAttributes:
            "some attributes are invalid"
                + (error.invalidAttributes.isEmpty ? "" : ": " + error.invalidAttributes.joined(separator: ", "))
        case .invalidScope: "a requested scope is not allowed"
        case .userNotFound: "no account has this e-mail address"
        case .userAlreadyExists: "an account with this e-mail address already exists"
        case .userDisabled: "the account is disabled"
        case .interactionRequired: Self.sentence(error.message).lowercasedFirst
        case .flowExpired, .invalidFlowState: "the flow expired or is no longer valid"
        case .codeExpired: "the code expired"
        case .codeAttemptsExceeded: "the code was entered wrongly too often"
        case .networkError where isCertificateFailure: "the TLS certificate of the server at \(server) is not trusted"
        case .networkError: "cannot reach the server at \(server)"
        case .serverError: "the server failed" + (error.httpStatus.map { " (HTTP \($0))" } ?? "")
        case .tooManyRequests: "the server is limiting requests"
        case .credentialStoreError:
            "the credential store failed: "
                + Self.sentence((error.underlyingError as? CredentialStoreError)?.message ?? error.message)
        case .browserRequired: "this flow can only be finished in a browser"
        case .unknownClient: "the client id is not registered in this tenant"
        case .unknownTenant: "the tenant does not exist"
        case .invalidChallenge: "the second-factor or registration code is incorrect"
        case .invalidInput: "invalid input: the phone number or e-mail address to register is not valid"
        case .verificationContactBlocked: "the server does not accept this phone number or e-mail address as a second factor"
        case .authMethodBlocked: "the server blocked this second-factor method"
        case .serverDeclinedScopes:
            "the server did not grant every scope"
                + (error.declinedScopes.isEmpty ? "" : ": declined " + error.declinedScopes.joined(separator: " "))
        case .serverProtectionPoliciesRequired:
            "the server requires an app-protection policy"
                + (error.protectionPolicy.map { $0.isEmpty ? "" : " (\($0))" } ?? "")
        default: Self.sentence(error.message).lowercasedFirst
        }
    }

    /// What to do next, as a sentence.
    private var hint: String? {
        switch error.code {
        case .wrongPassword: "Check the password, or run 'latch reset-password'."
        case .invalidCode: "Check the code in the e-mail and enter it again."
        case .weakPassword: "Choose a longer, less common password."
        case .invalidEmail: "Enter an address such as name@example.com."
        case .missingInput:
            "Answer the prompt, or pass --email, --password-stdin, LATCH_PASSWORD, LATCH_CODE, LATCH_MFA_CODE or "
                + "LATCH_REGISTRATION_CODE."
        case .invalidAttributes: "Correct them (--attribute NAME=VALUE) and sign up again."
        case .invalidScope: "Check the --scope values."
        case .userNotFound: "Run 'latch signup' to create an account."
        case .userAlreadyExists: "Run 'latch signin' instead, or 'latch reset-password'."
        case .userDisabled: "Ask the administrator to enable it."
        case .interactionRequired where error.claimsChallenge != nil:
            "The session needs a recent second factor: run 'latch token' with the same --scope to prove one, or "
                + "'latch signin' again."
        case .interactionRequired: "Run 'latch signin' to sign in again."
        case .flowExpired, .invalidFlowState: "Run the command again."
        case .codeExpired, .codeAttemptsExceeded: "Run the command again to get a new code."
        case .networkError where isCertificateFailure:
            certificateAuthorityFile.map { "Check that \($0) holds the certificate authority that signed it." }
                ?? "Pass --ca-file FILE with the certificate authority that signed it (for latchd serve --dev --tls: "
                + "<data-dir>/dev-ca.pem, printed after 'trust:')."
        case .networkError: "Check --server and that latchd is running, then retry."
        case .serverError: "Retry later."
        case .tooManyRequests:
            error.retryAfter.map { "Retry in \(Int($0.rounded(.up))) seconds." } ?? "Retry later."
        case .credentialStoreError: "Check the permissions of \(cachePath) (or pass --cache FILE)."
        case .browserRequired: "Finish it in a browser at \(server)."
        case .unknownClient: "Check --client-id."
        case .unknownTenant: "Check --tenant."
        case .invalidChallenge where error.recovery == .resendCode: "Run the command again to get a new code."
        case .invalidChallenge:
            "Check the latest code sent to the second-factor contact and enter it again (or pass it on standard "
                + "input, LATCH_MFA_CODE or LATCH_REGISTRATION_CODE)."
        case .invalidInput:
            "Pass --register-phone with a number in E.164 form (+14155550100), or --register-email with an address."
        case .verificationContactBlocked: "Register another contact (--register-email or --register-phone)."
        case .authMethodBlocked: "Choose another method with --mfa-method ID|email|sms ('latch mfa list' shows them)."
        case .serverDeclinedScopes:
            "The tokens for the granted scopes are stored; drop the others from --scope, or ask the administrator to "
                + "allow them."
        case .serverProtectionPoliciesRequired: "latch cannot supply that evidence; use an app that can."
        default: nil
        }
    }

    /// Whether the network failure is a server certificate the client does not trust (the
    /// `URLError` codes `URLSession` and LatchCurl use for it).
    private var isCertificateFailure: Bool {
        let certificateCodes: Set<URLError.Code> = [
            .serverCertificateUntrusted, .serverCertificateHasUnknownRoot, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid,
        ]
        return (error.underlyingError as? URLError).map { certificateCodes.contains($0.code) } ?? false
    }

    /// `text` without a trailing period.
    private static func sentence(_ text: String) -> String {
        text.hasSuffix(".") ? String(text.dropLast()) : text
    }
}

extension String {
    /// The string with its first character lower-cased.
    fileprivate var lowercasedFirst: String {
        guard let first else { return self }
        return first.lowercased() + dropFirst()
    }
}
