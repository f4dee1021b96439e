import Foundation

/// Turns an Identity Toolkit or securetoken error answer into a ``LatchError``: the one table from
/// the `error.message` code (the part before the first `:`, trimmed) to a Firebase-numbered code,
/// as the Apple SDK does (`AuthBackend.swift`). The rest of the message becomes
/// ``LatchError/failureReason`` (the weak-password rule, for instance).
enum FirebaseErrorMapping {
    /// The server messages and their codes (protocol reference § 1).
    static let table: [String: LatchError.Code] = [
        "INVALID_IDP_RESPONSE": .invalidCredential, "INVALID_PENDING_TOKEN": .invalidCredential,
        "INVALID_LOGIN_CREDENTIALS": .invalidCredential, "USER_DISABLED": .userDisabled,
        "OPERATION_NOT_ALLOWED": .operationNotAllowed, "PASSWORD_LOGIN_DISABLED": .operationNotAllowed,
        "EMAIL_EXISTS": .emailAlreadyInUse, "INVALID_EMAIL": .invalidEmail, "INVALID_IDENTIFIER": .invalidEmail,
        "INVALID_PASSWORD": .wrongPassword, "TOO_MANY_ATTEMPTS_TRY_LATER": .tooManyRequests,
        "USER_NOT_FOUND": .userNotFound, "EMAIL_NOT_FOUND": .userNotFound,
        "CREDENTIAL_TOO_OLD_LOGIN_AGAIN": .requiresRecentLogin, "INVALID_ID_TOKEN": .invalidUserToken,
        "TOKEN_EXPIRED": .userTokenExpired, "FEDERATED_USER_ID_ALREADY_LINKED": .credentialAlreadyInUse,
        "WEAK_PASSWORD": .weakPassword, "EXPIRED_OOB_CODE": .expiredActionCode, "INVALID_OOB_CODE": .invalidActionCode,
        "MISSING_EMAIL": .missingEmail, "INVALID_CODE": .invalidCode, "INVALID_CUSTOM_TOKEN": .invalidCustomToken,
        "CREDENTIAL_MISMATCH": .customTokenMismatch, "INVALID_NEW_EMAIL": .invalidEmail, "MISSING_NEW_EMAIL": .missingEmail,
        "MISSING_OR_INVALID_NONCE": .missingOrInvalidNonce,
    ]

    /// Codes whose detail is dropped (the Apple SDK discards `EMAIL_EXISTS`'s).
    private static let detailDiscarded: Set<String> = ["EMAIL_EXISTS"]

    /// The error for a non-2xx answer with `body`.
    static func error(status: Int, body: Data, correlationID: String) -> LatchError {
        if body.isEmpty {
            return LatchError(
                code: .networkError, message: "The server answered HTTP \(status) with no body.",
                correlationID: correlationID, httpStatus: status)
        }
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        guard let envelope = object?["error"] as? [String: Any], let message = envelope["message"] as? String else {
            return LatchError(
                code: .internalError, message: "The server's error answer (HTTP \(status)) is not the error envelope.",
                correlationID: correlationID, httpStatus: status)
        }
        let (server, detail) = split(message)
        if let code = table[server] {
            let reason = detailDiscarded.contains(server) || detail.isEmpty ? nil : detail
            return LatchError(
                code: code, message: "The server answered \(server).", failureReason: reason,
                correlationID: correlationID, httpStatus: status, oauthError: server)
        }
        // Unmapped: only then is errors[].reason consulted, and only when every value is a string.
        let reasons =
            (envelope["errors"] as? [[String: Any]])?.compactMap { entry -> String? in
                guard entry.values.allSatisfy({ $0 is String }) else { return nil }
                return entry["reason"] as? String
            } ?? []
        let code: LatchError.Code =
            if reasons.contains(where: { $0.hasPrefix("keyInvalid") }) {
                .invalidAPIKey
            } else if reasons.contains("ipRefererBlocked") {
                .appNotAuthorized
            } else {
                .internalError
            }
        return LatchError(
            code: code, message: "The server answered \(server).", failureReason: detail.isEmpty ? nil : detail,
            correlationID: correlationID, httpStatus: status, oauthError: server)
    }

    /// The error for an error message carried in a 200 answer (`signInWithIdp`'s `errorMessage`).
    static func error(message: String) -> LatchError {
        let (server, detail) = split(message)
        return LatchError(
            code: table[server] ?? .internalError, message: "The server answered \(server).",
            failureReason: detail.isEmpty ? nil : detail, oauthError: server)
    }

    /// `"CODE : detail"` split at the first `:`, both parts trimmed.
    static func split(_ message: String) -> (code: String, detail: String) {
        guard let colon = message.firstIndex(of: ":") else {
            return (message.trimmingCharacters(in: .whitespaces), "")
        }
        return (
            message[..<colon].trimmingCharacters(in: .whitespaces),
            message[message.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        )
    }

    /// The codes after which the user is signed out locally (`signOutIfTokenIsInvalid`).
    static let signsOut: Set<LatchError.Code> = [.userNotFound, .userDisabled, .invalidUserToken, .userTokenExpired]
}
