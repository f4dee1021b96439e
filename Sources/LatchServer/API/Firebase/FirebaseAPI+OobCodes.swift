import Foundation
import LatchHTTP

/// The out-of-band routes of the account API (`reference/firebase-auth-protocol.md` § 2 and § 4):
/// `accounts:sendOobCode` (v3 `getOobConfirmationCode`), `accounts:resetPassword` (v3
/// `resetPassword`) and `accounts:signInWithEmailLink` (v3 `emailLinkSignin`); `accounts:update`
/// with an `oobCode` lands in ``applyOobCode(_:_:)``.
extension FirebaseAPI {
    /// The `requestType` values of `sendOobCode` and the code kinds they name.
    static let requestTypes = Dictionary(uniqueKeysWithValues: OobCodeKind.allCases.map { (requestType(of: $0), $0) })

    /// The `requestType` the account API names `kind` by.
    static func requestType(of kind: OobCodeKind) -> String {
        switch kind {
        case .verifyEmail: "VERIFY_EMAIL"
        case .passwordReset: "PASSWORD_RESET"
        case .verifyAndChangeEmail: "VERIFY_AND_CHANGE_EMAIL"
        case .emailSignIn: "EMAIL_SIGNIN"
        }
    }

    /// Whether the JSON body carries a new password, which the request hashes with Argon2id.
    static let carriesNewPassword: Router.BlockingTest = { request in
        guard let body = try? request.jsonObject(), let password = body["newPassword"] as? String else { return false }
        return !password.isEmpty
    }

    /// Adds the out-of-band routes.
    func registerOobCodes(in router: inout Router) {
        let services = services
        let renderer = renderer
        route(&router, v1: "accounts:sendOobCode", v3: "getOobConfirmationCode") { call in
            guard let name = call.string("requestType"), !name.isEmpty else {
                throw AuthFailure.missingParameter(.requestType)
            }
            guard let kind = Self.requestTypes[name] else { throw AuthFailure.invalidParameter(.requestType) }
            do {
                let email = try services.oobCodes.send(
                    call.context, kind: kind, idToken: call.string("idToken"), email: call.string("email"),
                    newEmail: call.string("newEmail"), continueURL: call.string("continueUrl"))
                return JSONBody.ok(["kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": email])
            } catch AuthFailure.userNotFound where kind == .passwordReset {
                // The account is named by its address: an unknown one is EMAIL_NOT_FOUND (§ 1).
                return renderer.render(AuthFailure.userNotFound, tenant: call.context.tenant, call: .signIn)
            }
        }
        route(&router, v1: "accounts:resetPassword", v3: "resetPassword", mayBlock: Self.carriesNewPassword) { call in
            let code = call.string("oobCode")
            guard call.body["newPassword"] != nil else {
                // Only the code: say what it is for without using it up (verifyPasswordResetCode,
                // checkActionCode).
                let info = try services.oobCodes.check(call.context, code: code)
                var body: [String: any Sendable] = [
                    "kind": "identitytoolkit#ResetPasswordResponse", "email": info.email,
                    "requestType": Self.requestType(of: info.kind),
                ]
                body["newEmail"] = info.newEmail
                return JSONBody.ok(body)
            }
            let email = try services.oobCodes.resetPassword(
                call.context, code: code, newPassword: call.string("newPassword"))
            return JSONBody.ok([
                "kind": "identitytoolkit#ResetPasswordResponse", "email": email, "requestType": "PASSWORD_RESET",
            ])
        }
        route(&router, v1: "accounts:signInWithEmailLink", v3: "emailLinkSignin") { call in
            let (session, isNew) = try services.oobCodes.signIn(
                call.context, email: call.string("email"), code: call.string("oobCode"), idToken: call.string("idToken"))
            var body = Self.tokenTriple(session)
            body["kind"] = "identitytoolkit#EmailLinkSigninResponse"
            body["localId"] = session.user.id
            body["email"] = AccountProfile.email(of: session.user)
            body["isNewUser"] = isNew
            return JSONBody.ok(body)
        }
    }

    /// `accounts:update` / `setAccountInfo` with `oobCode` and no `idToken`: applies an e-mail
    /// verification or address change code and answers the account as `setAccountInfo` does.
    static func applyOobCode(_ services: AuthServices, _ call: Call) throws -> HTTPResponse {
        let user = try services.oobCodes.apply(call.context, code: call.string("oobCode"))
        var body: [String: any Sendable] = [:]
        for (name, value) in userInfo(user) where name != "validSince" && name != "createdAt" {
            body[name] = value
        }
        body["kind"] = "identitytoolkit#SetAccountInfoResponse"
        return JSONBody.ok(body)
    }
}
