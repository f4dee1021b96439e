import Foundation
import Latch

/// `latch signin --anonymous | --custom-token T | --email-link`: the sign-ins of the
/// Firebase-style account API (``LatchFirebaseAuth``), which need the client's API key. The
/// e-mail link is sent to `--email` (else `LATCH_EMAIL`, else a prompt) and then asked for.
struct FirebaseSignInCommand: Sendable {
    /// The shared context.
    let context: CommandContext

    /// Whether the options ask for one of these sign-ins.
    static func applies(to options: CommandLineOptions) -> Bool {
        options.anonymous || options.customToken != nil || options.emailLink
    }

    /// Runs the sign-in and prints the user.
    func run() async throws {
        let auth = context.client.firebase
        let options = context.options
        let user: LatchUser
        let flow: String
        if options.anonymous {
            user = try await auth.signInAnonymously()
            flow = "anonymous"
        } else if let token = options.customToken {
            user = try await auth.signIn(customToken: token)
            flow = "custom_token"
        } else {
            let email = try context.prompter.email(preset: options.email).value
            try await auth.sendSignInLink(toEmail: email)
            let link = try context.prompter.emailLink(sentTo: email).value
            user = try await auth.signIn(email: email, link: link)
            flow = "email_link"
        }
        context.output.user(user, status: "signed_in", flow: flow)
    }
}
