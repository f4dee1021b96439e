import Foundation
import Latch

/// `latch account ACTION [--account EMAIL]`: the selected account through the Firebase-style
/// account API (``LatchUser``): show its profile, change its e-mail or password, verify its
/// e-mail, delete it, link or unlink a provider. Needs the client's API key.
struct AccountCommand: Sendable {
    /// The shared context.
    let context: CommandContext

    /// Runs the action and prints the user as it is afterwards (nothing is left after `delete`).
    func run() async throws {
        let account = try await AccountSelector(context: context).select()
        guard let stored = try await context.client.firebase.user(for: account) else {
            throw LatchError(code: .interactionRequired, message: "No account \(account.username) is signed in.")
        }
        let options = context.options
        let prompter = context.prompter
        switch options.accountAction ?? .show {
        case .show:
            context.output.user(try await stored.reload(), status: "ok", flow: "show")
        case .updateEmail:
            let email = try prompter.email(preset: options.email).value
            context.output.user(try await stored.updateEmail(to: email), status: "updated", flow: "update_email")
        case .updatePassword:
            let password = try prompter.password("New password", confirm: true).value
            context.output.user(try await stored.updatePassword(to: password), status: "updated", flow: "update_password")
        case .verifyEmail:
            try await verifyEmail(stored)
        case .delete:
            try await stored.delete()
            context.output.result(
                ["status": .string("deleted"), "uid": .string(stored.uid)],
                human: "Deleted the account \(stored.email ?? stored.uid) and signed it out here.")
        case .link:
            let credential: LatchAuthCredential
            if let provider = options.providerID, provider != "password" {
                guard let idToken = options.idToken else {
                    throw UsageError("'latch account link --provider-id \(provider)' needs --id-token T")
                }
                credential = .openID(providerID: provider, idToken: idToken)
            } else {
                let email = try prompter.email(preset: options.email).value
                credential = .email(email, password: try prompter.password("Password", confirm: true).value)
            }
            context.output.user(try await stored.link(with: credential), status: "linked", flow: "link")
        case .unlink:
            guard let provider = options.providerID else {
                throw UsageError("'latch account unlink' needs --provider-id P")
            }
            context.output.user(try await stored.unlink(fromProvider: provider), status: "unlinked", flow: "unlink")
        }
    }

    /// Sends the verification e-mail, then applies the link or code the user pastes (an empty
    /// answer leaves it for later).
    private func verifyEmail(_ user: LatchUser) async throws {
        try await user.sendEmailVerification()
        let answer = try context.prompter.verificationLink(sentTo: user.email ?? "the account's address").value
        guard !answer.isEmpty else {
            context.output.result(
                ["status": .string("sent"), "uid": .string(user.uid)],
                human: "Sent a verification e-mail to \(user.email ?? "the account's address").")
            return
        }
        let code = URLComponents(string: answer)?.queryItems?.first { $0.name == "oobCode" }?.value ?? answer
        try await context.client.firebase.applyActionCode(code)
        context.output.user(try await user.reload(), status: "verified", flow: "verify_email")
    }
}
