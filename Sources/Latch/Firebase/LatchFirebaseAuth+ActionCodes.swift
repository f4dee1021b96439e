import Foundation

extension LatchFirebaseAuth {
    /// Sends a password-reset e-mail (`accounts:sendOobCode`, `PASSWORD_RESET`).
    /// - Throws: ``LatchError`` — ``LatchError/Code/invalidEmail``, ``LatchError/Code/missingEmail``,
    ///   ``LatchError/Code/userNotFound`` (without e-mail enumeration protection), and the common errors.
    public func sendPasswordReset(withEmail email: String) async throws {
        _ = try await channel.accounts(
            "sendOobCode", ["requestType": "PASSWORD_RESET", "email": email], as: FirebaseWire.EmailReply.self)
    }

    /// Sets a new password with the code of a password-reset e-mail (`accounts:resetPassword`).
    /// - Throws: ``LatchError`` — ``LatchError/Code/expiredActionCode``, ``LatchError/Code/invalidActionCode``,
    ///   ``LatchError/Code/weakPassword``, ``LatchError/Code/userDisabled``, and the common errors.
    public func confirmPasswordReset(code: String, newPassword: String) async throws {
        _ = try await channel.accounts(
            "resetPassword", ["oobCode": code, "newPassword": newPassword], as: FirebaseWire.EmailReply.self)
    }

    /// Applies the code of a verification e-mail (`accounts:update` with `oobCode`).
    /// - Throws: ``LatchError`` — ``LatchError/Code/expiredActionCode``, ``LatchError/Code/invalidActionCode``,
    ///   ``LatchError/Code/userDisabled``, and the common errors.
    public func applyActionCode(_ code: String) async throws {
        _ = try await channel.accounts("update", ["oobCode": code], as: FirebaseWire.EmailReply.self)
    }
}
