import Foundation
import Latch

/// Writes results: with `--json` one JSON object per result on standard output, otherwise
/// human-readable text on standard output. Errors always get a human line on standard error;
/// with `--json` they are also printed as `{"error":{…}}` on standard output.
struct OutputPrinter: Sendable {
    /// Whether `--json` was given.
    let json: Bool

    /// Prints one result.
    func result(_ object: [String: JSONValue], human: @autoclosure () -> String) {
        if json {
            Self.standardOutput(JSONValue.object(object).text)
        } else {
            let text = human()
            if !text.isEmpty { Self.standardOutput(text) }
        }
    }

    /// Prints a failure: the human line on standard error, and with `--json` the error object on standard output.
    func failure(human: String, json object: [String: JSONValue]) {
        FileHandle.standardError.write(Data((human + "\n").utf8))
        if json { Self.standardOutput(JSONValue.object(["error": .object(object)]).text) }
    }

    /// Writes `text` and a newline to standard output, unbuffered.
    static func standardOutput(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// The JSON description of an account.
    static func account(_ account: LatchAccount) -> JSONValue {
        .object([
            "id": .string(account.id), "username": .string(account.username), "tenant": .string(account.tenant),
            "session_state": .string(account.sessionState == .signedIn ? "signed_in" : "interaction_required"),
        ])
    }

    /// The JSON description of a strong authentication method (contact masked).
    static func authMethod(_ method: LatchAuthMethod) -> JSONValue {
        .object(["id": .string(method.id), "channel": .string(method.channel.value), "login_hint": .optional(method.loginHint)])
    }

    /// The result of a finished sign-up, sign-in or password reset, with the second factor it
    /// proved (`mfa_method`) and the strong method it registered (`registered_method`).
    func signedIn(_ outcome: SignInSteps.Outcome, flow: String) {
        let result = outcome.result
        var object: [String: JSONValue] = [
            "status": .string("signed_in"), "flow": .string(flow), "account": Self.account(result.account),
            "expires_on": .int(Int(result.expiresOn.timeIntervalSince1970)),
            "scopes": .array(result.scopes.map(JSONValue.string)),
        ]
        var lines: [String] = []
        if let registration = outcome.registration {
            object["registered_method"] = .object([
                "channel": .string(registration.channel.value), "contact": .string(registration.contact),
                "preverified": .bool(registration.preverified),
            ])
            let registered = "Registered \(registration.channel.value) \(registration.contact) as a second factor"
            lines.append(
                registration.preverified
                    ? registered + "; the server already trusted it, so no code was needed." : registered + ".")
        }
        var signedIn = "Signed in as \(result.account.username)"
        if let method = outcome.mfaMethod {
            object["mfa_method"] = Self.authMethod(method)
            signedIn += " with a second factor (\(method.channel.value) \(method.loginHint ?? method.id))"
        }
        lines.append(signedIn + ".")
        self.result(object, human: lines.joined(separator: "\n"))
    }

    /// A user of the Firebase-style account API after `flow`: uid, e-mail, verification, providers.
    func user(_ user: LatchUser, status: String, flow: String) {
        let providers = user.providerData.map(\.providerID)
        let object: [String: JSONValue] = [
            "status": .string(status), "flow": .string(flow), "account": Self.account(user.account),
            "uid": .string(user.uid), "email": .optional(user.email), "email_verified": .bool(user.isEmailVerified),
            "display_name": .optional(user.displayName), "anonymous": .bool(user.isAnonymous),
            "providers": .array(providers.map(JSONValue.string)),
        ]
        let who = user.email ?? (user.isAnonymous ? "an anonymous user" : user.uid)
        let lead: String =
            switch status {
            case "signed_in": "Signed in as \(who)."
            case "ok": "Account \(who)."
            default: "Account \(who): \(status.replacing("_", with: " "))."
            }
        let lines = [
            lead, "  uid:       \(user.uid)",
            "  e-mail:    \(user.email ?? "none")"
                + (user.email == nil ? "" : user.isEmailVerified ? " (verified)" : " (not verified)"),
            "  providers: \(providers.isEmpty ? "none" : providers.joined(separator: ", "))",
        ]
        result(object, human: lines.joined(separator: "\n"))
    }

    /// `rows` (the first a header) as columns two spaces apart, left-aligned.
    static func columns(_ rows: [[String]]) -> String {
        let count = rows.map(\.count).max() ?? 0
        let widths = (0..<count).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                line += column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count + 2)
            }
            return line
        }.joined(separator: "\n")
    }
}
